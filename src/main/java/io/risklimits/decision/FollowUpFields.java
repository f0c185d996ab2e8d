package io.risklimits.decision;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/**
 * The rules of the transaction event's follow-up and hold fields: reverses, original, hold_expires_at and
 * final, in that order. Each adds at most one error, naming its field (reverses for a reversal that names
 * its original in neither field), and gives null for a field that is absent, null or broken. When the type
 * itself is broken, only what does not depend on it is judged: hold_expires_at as a timestamp after
 * occurred_at; original is then echoed when it reads as a UUID.
 */
final class FollowUpFields {

    private FollowUpFields() {}

    /**
     * A reversal names its original here, in original, or in both when they are equal: another event's
     * dedupe_id. Absent (or null) for every other type.
     */
    static UUID reverses(JsonNode node, EventType type, UUID dedupeId, List<FieldError> errors) {
        boolean absent = node == null || node.isNull();
        if (type != EventType.REVERSAL) {
            if (!absent && type != null) {
                errors.add(new FieldError("reverses", "must be absent unless type is REVERSAL"));
            }
            return null;
        }
        if (absent) {
            return null;
        }
        UUID reverses = JsonFields.uuidOrNull(node);
        if (reverses == null) {
            errors.add(new FieldError("reverses", "must be a UUID string"));
            return null;
        }
        if (reverses.equals(dedupeId)) {
            errors.add(new FieldError("reverses", "must be another event's dedupe_id, not the reversal's own"));
            return null;
        }
        return reverses;
    }

    /**
     * Required for a capture or an increment, optional for a reversal (which must then name its original
     * in one of reverses and original, or the same in both), absent for an authorization; another event's
     * dedupe_id.
     */
    static UUID original(
            JsonNode node,
            EventType type,
            UUID dedupeId,
            JsonNode reversesNode,
            UUID reverses,
            List<FieldError> errors) {
        boolean absent = node == null || node.isNull();
        if (type == null) {
            return absent ? null : JsonFields.uuidOrNull(node);
        }
        if (!type.isFollowUp()) {
            if (!absent) {
                errors.add(new FieldError("original", "must be absent for an AUTHORIZATION"));
            }
            return null;
        }
        boolean reversesAbsent = reversesNode == null || reversesNode.isNull();
        if (absent) {
            if (type != EventType.REVERSAL) {
                errors.add(new FieldError(
                        "original", "is required for " + (type == EventType.INCREMENT ? "an " : "a ") + type));
            } else if (reversesAbsent) {
                errors.add(new FieldError("reverses", "is required for a REVERSAL (or original)"));
            }
            return null;
        }
        UUID original = JsonFields.uuidOrNull(node);
        if (original == null) {
            errors.add(new FieldError("original", "must be a UUID string"));
            return null;
        }
        if (original.equals(dedupeId)) {
            errors.add(new FieldError("original", "must be another event's dedupe_id, not the event's own"));
            return null;
        }
        if (reverses != null && !reverses.equals(original)) {
            errors.add(new FieldError("original", "must equal reverses when a REVERSAL has both"));
            return null;
        }
        return original;
    }

    /**
     * Optional on an authorization or an increment: after occurred_at and at most risk.holds.max-ttl after
     * it. Absent (or null) for every other type.
     *
     * @param occurredAt the event's, or null when it failed its own rules (then only the form is judged)
     * @param maxHoldTtl how far after occurred_at it may be (risk.holds.max-ttl)
     */
    static Instant holdExpiresAt(
            JsonNode node, EventType type, Instant occurredAt, Duration maxHoldTtl, List<FieldError> errors) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (type != null && type != EventType.AUTHORIZATION && type != EventType.INCREMENT) {
            errors.add(new FieldError("hold_expires_at", "must be absent unless type is AUTHORIZATION or INCREMENT"));
            return null;
        }
        String text = node.isString() ? node.stringValue() : null;
        Instant expiresAt = text == null || text.length() > TransactionEventReader.MAX_TIMESTAMP_LENGTH
                ? null
                : Rfc3339.instant(text);
        if (expiresAt == null) {
            errors.add(new FieldError("hold_expires_at", "must be an RFC 3339 timestamp, e.g. 2026-11-29T10:15:30Z"));
            return null;
        }
        if (occurredAt != null && !expiresAt.isAfter(occurredAt)) {
            errors.add(new FieldError("hold_expires_at", "must be after occurred_at"));
            return null;
        }
        if (occurredAt != null && expiresAt.isAfter(occurredAt.plus(maxHoldTtl))) {
            errors.add(new FieldError(
                    "hold_expires_at", "must be at most " + maxHoldTtl + " (risk.holds.max-ttl) after occurred_at"));
            return null;
        }
        return expiresAt;
    }

    /** Optional on a capture (true when absent or null), absent for every other type. */
    static Boolean isFinal(JsonNode node, EventType type, List<FieldError> errors) {
        boolean absent = node == null || node.isNull();
        if (type != EventType.CAPTURE) {
            if (!absent && type != null) {
                errors.add(new FieldError("final", "must be absent unless type is CAPTURE"));
            }
            return null;
        }
        if (absent) {
            return true;
        }
        if (!node.isBoolean()) {
            errors.add(new FieldError("final", "must be true or false"));
            return null;
        }
        return node.booleanValue();
    }
}
