package io.risklimits.decision;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A transaction event that passed every rule of the contract.
 *
 * @param reverses for a REVERSAL, the dedupe_id of the authorization it releases (under the same
 *     business key) as the event named it in reverses; null when it named it in original alone, and for
 *     every other type
 * @param accountId the account the entity belongs to, or null: the event also counts at the account's
 *     scopes ({@link ScopeKey#countedAt}); a follow-up acts where its original was counted, whatever it
 *     names
 * @param original the dedupe_id a follow-up names in its original field (a REVERSAL may name its
 *     original there instead of in reverses, or in both); null when absent
 * @param holdExpiresAt when the hold of an AUTHORIZATION or INCREMENT expires, if the event says; null
 *     otherwise
 * @param isFinal for a CAPTURE, whether it is the authorization's last (true unless the event says
 *     otherwise); true for every other type
 */
public record TransactionEvent(
        UUID dedupeId,
        BusinessKey businessKey,
        long amount,
        String currency,
        Instant occurredAt,
        EventType type,
        UUID reverses,
        UUID accountId,
        UUID original,
        Instant holdExpiresAt,
        boolean isFinal) {

    /** An event with no hold fields: an authorization or a reversal. */
    public TransactionEvent(
            UUID dedupeId,
            BusinessKey businessKey,
            long amount,
            String currency,
            Instant occurredAt,
            EventType type,
            UUID reverses,
            UUID accountId) {
        this(dedupeId, businessKey, amount, currency, occurredAt, type, reverses, accountId, null, null, true);
    }

    /** An event without an account. */
    public TransactionEvent(
            UUID dedupeId,
            BusinessKey businessKey,
            long amount,
            String currency,
            Instant occurredAt,
            EventType type,
            UUID reverses) {
        this(dedupeId, businessKey, amount, currency, occurredAt, type, reverses, null);
    }

    /** An authorization. */
    public TransactionEvent(UUID dedupeId, BusinessKey businessKey, long amount, String currency, Instant occurredAt) {
        this(dedupeId, businessKey, amount, currency, occurredAt, EventType.AUTHORIZATION, null, null);
    }

    public boolean isReversal() {
        return type == EventType.REVERSAL;
    }

    /** A reversal, capture or increment: it acts on the authorization {@link #originalId()} names. */
    public boolean isFollowUp() {
        return type.isFollowUp();
    }

    /** The dedupe_id of the authorization a follow-up acts on (reverses or original); null for an authorization. */
    public UUID originalId() {
        return reverses != null ? reverses : original;
    }

    /** The scope keys an authorization of this event counts at, in the order they are checked. */
    public List<ScopeKey> scopeKeys() {
        return ScopeKey.countedAt(businessKey, accountId);
    }

    public EventFields fields() {
        return new EventFields(
                businessKey.entityId(),
                businessKey.channel(),
                businessKey.direction(),
                amount,
                currency,
                occurredAt,
                type,
                reverses,
                accountId,
                original,
                holdExpiresAt,
                type == EventType.CAPTURE ? isFinal : null);
    }
}
