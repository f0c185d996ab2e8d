package io.risklimits.backtest;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Tally;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.Window;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * The state of keys replayed together, as the live decider holds it: the approved tallies per hour
 * bucket of every scope key (less releases), and every decision a reversal may name as its original,
 * found under the reversal's own business key with where the original was counted.
 */
final class ScopedState {

    private static final Window[] WINDOWS = Window.values();

    /** A decision as a later reversal finds it, and the scope keys it was counted at. */
    record Original(ReplayedOriginal decision, List<ScopeKey> countedAt) {}

    private record DecisionId(BusinessKey key, UUID dedupeId) {}

    private final WindowStartHours windowStarts;
    private final long firstHour;
    private final long lastHour;
    private final Predicate<ScopeKey> limited;
    private final Map<ScopeKey, HourlyTallies> tallies = new HashMap<>();
    private final Map<DecisionId, Original> decisions = new HashMap<>();

    /**
     * An empty state covering the hour buckets from firstHour to lastHour.
     *
     * @param limited whether a scope key has a limit: only those keep tallies, the others' usage limits
     *     nothing
     */
    ScopedState(WindowStartHours windowStarts, long firstHour, long lastHour, Predicate<ScopeKey> limited) {
        this.windowStarts = windowStarts;
        this.firstHour = firstHour;
        this.lastHour = lastHour;
        this.limited = limited;
    }

    /** The scope key's usage in every window ending with the bucket. */
    Usage usageAt(ScopeKey scopeKey, long bucketHour) {
        HourlyTallies scopeTallies = tallies.get(scopeKey);
        if (scopeTallies == null) {
            return Usage.NONE;
        }
        long[] starts = windowStarts.startsFor(bucketHour);
        Map<Window, Tally> byWindow = new EnumMap<>(Window.class);
        for (Window window : WINDOWS) {
            if (window.countsUsage()) {
                byWindow.put(window, scopeTallies.sumFrom(starts[window.ordinal()]));
            }
        }
        return new Usage(byWindow);
    }

    /** An approved authorization, counted in its bucket at every scope key it belongs to. */
    void count(ScopedRow authorization) {
        for (ScopeKey scopeKey : authorization.countedAt()) {
            if (!limited.test(scopeKey)) {
                continue;
            }
            tallies.computeIfAbsent(scopeKey, unused -> new HourlyTallies(firstHour, lastHour))
                    .add(authorization.row().bucketHour(), authorization.row().amount(), 1);
        }
    }

    /** A release, taken from the bucket its original was counted in, at every scope key it was counted at. */
    void release(Original original, long amount, long count) {
        for (ScopeKey scopeKey : original.countedAt()) {
            if (!limited.test(scopeKey)) {
                continue;
            }
            tallies.computeIfAbsent(scopeKey, unused -> new HourlyTallies(firstHour, lastHour))
                    .add(original.decision().bucketHour(), -amount, -count);
        }
        original.decision().released(amount);
    }

    /** Files a decision with the verdict it has in the replay, so later reversals of its key can find it. */
    void file(ScopedRow scoped, Verdict verdict) {
        AuditRow row = scoped.row();
        decisions.put(
                new DecisionId(scoped.key(), row.dedupeId()),
                new Original(
                        new ReplayedOriginal(row.type(), verdict, row.amount(), row.bucketHour()), scoped.countedAt()));
    }

    /** The decision the reversal names under its business key, null when there is none (unknown, or archived). */
    Original originalOf(ScopedRow reversal) {
        return decisions.get(new DecisionId(reversal.key(), reversal.row().reverses()));
    }
}
