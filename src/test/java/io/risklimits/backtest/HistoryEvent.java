package io.risklimits.backtest;

import java.time.Instant;
import java.util.UUID;

/**
 * One generated event of a key and, once the reference model has decided it, its stored outcome: a
 * row of risk_request_log.
 */
final class HistoryEvent {

    enum Kind {
        AUTHORIZATION,
        REVERSAL,
        INVALID
    }

    final int key;
    final Kind kind;
    final UUID dedupeId = UUID.randomUUID();
    final long amount;
    final UUID reverses;
    final Instant bucket;
    final Instant decidedAt;
    final int decidedOrder;

    String decision;
    String reason;
    Long releasedAmount;
    Integer releasedCount;
    Long remaining;

    HistoryEvent(int key, Kind kind, long amount, UUID reverses, Instant bucket, Instant decidedAt, int decidedOrder) {
        this.key = key;
        this.kind = kind;
        this.amount = amount;
        this.reverses = reverses;
        this.bucket = bucket;
        this.decidedAt = decidedAt;
        this.decidedOrder = decidedOrder;
    }

    boolean decidedIn(Instant from, Instant to) {
        return !decidedAt.isBefore(from) && decidedAt.isBefore(to);
    }
}
