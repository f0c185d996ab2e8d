package io.risklimits.decision;

import java.time.Instant;
import java.util.UUID;

/** A transaction event that passed every rule of the contract. */
public record TransactionEvent(
        UUID dedupeId, BusinessKey businessKey, long amount, String currency, Instant occurredAt) {

    public EventFields fields() {
        return new EventFields(
                businessKey.entityId(), businessKey.channel(), businessKey.direction(), amount, currency, occurredAt);
    }
}
