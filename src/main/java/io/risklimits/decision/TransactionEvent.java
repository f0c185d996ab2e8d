package io.risklimits.decision;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A transaction event that passed every rule of the contract.
 *
 * @param reverses for a REVERSAL, the dedupe_id of the authorization it releases (under the same
 *     business key); null for an AUTHORIZATION
 * @param accountId the account the entity belongs to, or null: the event also counts at the account's
 *     scopes ({@link ScopeKey#countedAt}); a reversal releases where its original was counted, whatever
 *     it names
 */
public record TransactionEvent(
        UUID dedupeId,
        BusinessKey businessKey,
        long amount,
        String currency,
        Instant occurredAt,
        EventType type,
        UUID reverses,
        UUID accountId) {

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
                accountId);
    }
}
