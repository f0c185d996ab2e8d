package io.risklimits.decision;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * The fields of a transaction event that a decision echoes. For a valid event all are present (but
 * reverses, which only a reversal has); for an invalid one a field is null when it did not pass
 * validation. accountId is null when the event names no account.
 */
public record EventFields(
        UUID entityId,
        String channel,
        Direction direction,
        Long amount,
        String currency,
        Instant occurredAt,
        EventType type,
        UUID reverses,
        UUID accountId) {

    /** The fields of an event without an account. */
    public EventFields(
            UUID entityId,
            String channel,
            Direction direction,
            Long amount,
            String currency,
            Instant occurredAt,
            EventType type,
            UUID reverses) {
        this(entityId, channel, direction, amount, currency, occurredAt, type, reverses, null);
    }

    /** The fields of an authorization. */
    public EventFields(
            UUID entityId, String channel, Direction direction, Long amount, String currency, Instant occurredAt) {
        this(entityId, channel, direction, amount, currency, occurredAt, EventType.AUTHORIZATION, null, null);
    }

    public Optional<BusinessKey> businessKey() {
        if (entityId == null || channel == null || direction == null) {
            return Optional.empty();
        }
        return Optional.of(new BusinessKey(entityId, channel, direction));
    }
}
