package io.risklimits.backtest;

import io.risklimits.decision.EventType;
import io.risklimits.decision.ReversalPolicy;
import io.risklimits.decision.Verdict;

/**
 * A decision of the key as a later reversal finds it in the replay: its type, its verdict (replayed
 * inside the period, stored before it), its amount and bucket, and what reversals gave back of it so far.
 */
final class ReplayedOriginal {

    private final EventType type;
    private final Verdict verdict;
    private final long amount;
    private final long bucketHour;
    private long released;

    ReplayedOriginal(EventType type, Verdict verdict, long amount, long bucketHour) {
        this.type = type;
        this.verdict = verdict;
        this.amount = amount;
        this.bucketHour = bucketHour;
    }

    ReversalPolicy.Original asPolicyOriginal() {
        return new ReversalPolicy.Original(type, verdict, amount, released);
    }

    long bucketHour() {
        return bucketHour;
    }

    void released(long releasedAmount) {
        released += releasedAmount;
    }
}
