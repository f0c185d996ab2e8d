package io.risklimits.decision;

import java.time.Instant;
import java.util.UUID;

/**
 * A transaction event that passed every rule of the contract.
 *
 * @param reverses for a REVERSAL, the dedupe_id of the authorization it releases (under the same
 *     business key); null for an AUTHORIZATION
 */
public record TransactionEvent(
        UUID dedupeId,
        BusinessKey businessKey,
        long amount,
        String currency,
        Instant occurredAt,
        EventType type,
        UUID reverses) {

    /** An authorization. */
    public TransactionEvent(UUID dedupeId, BusinessKey businessKey, long amount, String currency, Instant occurredAt) {
        this(dedupeId, businessKey, amount, currency, occurredAt, EventType.AUTHORIZATION, null);
    }

    public boolean isReversal() {
        return type == EventType.REVERSAL;
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
                reverses);
    }
}
