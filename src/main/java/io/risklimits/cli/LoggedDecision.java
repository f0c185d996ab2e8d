package io.risklimits.cli;

import java.time.Instant;
import java.time.LocalDateTime;
import java.util.UUID;

/**
 * One row of the audit log as the CLI shows it. usage, limits and errors are the stored JSON
 * (null when the decision has none); the business key parts are null for a keyless INVALID event; the
 * released amount and count and what remains of the original are a reversal's; shadow is what shadow
 * limits would have decided ("REJECTED (LIMIT_DAY_AMOUNT)"), null where none applied.
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
        String shadow) {

    boolean isReversal() {
        return "REVERSAL".equals(type);
    }

    String businessKey() {
        return entityId + ":" + channel + ":" + direction;
    }
}
