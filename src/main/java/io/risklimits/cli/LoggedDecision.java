package io.risklimits.cli;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.ScopeKey;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import java.util.UUID;

/**
 * One row of the audit log as the CLI shows it. usage, limits and errors are the stored JSON
 * (null when the decision has none); the business key parts are null for a keyless INVALID event; the
 * released amount and count and what remains of the original are a reversal's; shadow is what shadow
 * limits would have decided ("REJECTED (LIMIT_DAY_AMOUNT)"), null where none applied. accountId is the
 * account the event carried, null when it carried none. original is the authorization a capture,
 * increment or expiry (or a reversal that named it so) acts on; isFinal a capture's final field;
 * holdExpiresAt an approved hold's (or increment's) expiry, an expiry's instant; captured and
 * overCaptured what a CAPTURED decision took from what was held and counted anew. Each is null where the
 * decision has none.
 */
record LoggedDecision(
        UUID dedupeId,
        UUID entityId,
        String channel,
        String direction,
        String decision,
        String reason,
        Long amount,
        String currency,
        Instant occurredAt,
        Instant decidedAt,
        LocalDateTime bucketTs,
        String usage,
        String limits,
        String errors,
        String table,
        String type,
        UUID reverses,
        Long releasedAmount,
        Integer releasedCount,
        Long remaining,
        UUID accountId,
        String shadow,
        UUID original,
        Boolean isFinal,
        Instant holdExpiresAt,
        Long captured,
        Long overCaptured) {

    boolean isReversal() {
        return "REVERSAL".equals(type);
    }

    /** An authorization, or an INVALID event whose type could not be read (filed as one). */
    boolean isAuthorization() {
        return type == null || "AUTHORIZATION".equals(type);
    }

    String businessKey() {
        return entityId + ":" + channel + ":" + direction;
    }

    /**
     * Where an approved authorization was counted (and where its follow-ups act): its business key,
     * its entity, and with an account the account's channel and the account. Empty for any other
     * decision, and for a row without a readable business key.
     */
    List<ScopeKey> countedAt() {
        if (entityId == null || !isAuthorization() || !"APPROVED".equals(decision)) {
            return List.of();
        }
        return ScopeKey.countedAt(new BusinessKey(entityId, channel, Direction.valueOf(direction)), accountId);
    }
}
