package io.risklimits.decision;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * The fields of a transaction event that a decision echoes or compares a redelivery with. For a valid
 * event all are present but the optional ones (reverses, accountId, original, holdExpiresAt, and isFinal,
 * which only a capture has); for an invalid one a field is null when it did not pass validation.
 *
 * @param holdExpiresAt the event's hold_expires_at (the decided expiry is the decision's)
 * @param isFinal a capture's final field (true when absent); null for every other type
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
        UUID accountId,
        UUID original,
        Instant holdExpiresAt,
        Boolean isFinal) {

    /** The fields of an event with no hold fields. */
    public EventFields(
            UUID entityId,
            String channel,
            Direction direction,
            Long amount,
            String currency,
            Instant occurredAt,
            EventType type,
            UUID reverses,
            UUID accountId) {
        this(entityId, channel, direction, amount, currency, occurredAt, type, reverses, accountId, null, null, null);
    }

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

    /** The authorization a follow-up or an expiry acts on (reverses, else original); null for others. */
    public UUID originalId() {
        return reverses != null ? reverses : original;
    }

    public Optional<BusinessKey> businessKey() {
        if (entityId == null || channel == null || direction == null) {
            return Optional.empty();
        }
        return Optional.of(new BusinessKey(entityId, channel, direction));
    }

    /**
     * The fields (type, amount, currency, reverses, account_id, original, hold_expires_at, final) in which an
     * event differs from the one this decision was made for; empty for a redelivery of the same event.
     */
    public List<String> differingFrom(TransactionEvent event) {
        List<String> differing = new ArrayList<>();
        if (type() != event.type()) {
            differing.add("type");
        }
        if (amount() == null || amount() != event.amount()) {
            differing.add("amount");
        }
        if (!Objects.equals(currency(), event.currency())) {
            differing.add("currency");
        }
        if (!Objects.equals(reverses(), event.reverses())) {
            differing.add("reverses");
        }
        if (!Objects.equals(accountId(), event.accountId())) {
            differing.add("account_id");
        }
        if (!Objects.equals(original(), event.original())) {
            differing.add("original");
        }
        if (!Objects.equals(holdExpiresAt(), event.holdExpiresAt())) {
            differing.add("hold_expires_at");
        }
        if (!Objects.equals(isFinal(), event.fields().isFinal())) {
            differing.add("final");
        }
        return differing;
    }
}
