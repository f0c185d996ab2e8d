package io.risklimits.decision;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The decision the service makes when a hold expires: EXPIRED, for no event. */
public final class ExpiryDecision {

    private ExpiryDecision() {}

    /**
     * Filed and published under the hold's business key, with a dedupe_id of its own derived from the
     * authorization's (the same wherever and however often it is made); it echoes the authorization's
     * key, amount, currency and account, occurred at the expiry, and reads no usage and applies no limits.
     *
     * @param authorization the expired authorization's fields
     * @param expiresAt when the hold expired: the expiry's occurred_at and hold_expires_at
     * @param released what the expiry gave back
     * @param remaining what is still counted of the authorization after it (what captures took)
     */
    public static Decision of(
            UUID dedupeId,
            UUID authorizationId,
            EventFields authorization,
            Instant expiresAt,
            Tally released,
            long remaining,
            Instant bucketTs,
            Instant decidedAt) {
        EventFields fields = new EventFields(
                authorization.entityId(),
                authorization.channel(),
                authorization.direction(),
                authorization.amount(),
                authorization.currency(),
                expiresAt,
                EventType.EXPIRY,
                null,
                authorization.accountId(),
                authorizationId,
                null,
                null);
        return new Decision(
                dedupeId,
                fields,
                Verdict.EXPIRED,
                null,
                List.of(),
                null,
                null,
                bucketTs,
                decidedAt,
                released,
                remaining,
                List.of(),
                null,
                List.of(),
                expiresAt,
                null,
                null,
                null,
                false,
                null);
    }
}
