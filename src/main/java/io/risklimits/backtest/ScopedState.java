package io.risklimits.backtest;

import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Tally;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Window;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The usage of keys replayed together, as the live decider holds it: what is counted per hour bucket
 * of every limited scope key (approvals, increments and over-captures, less releases).
 */
final class ScopedState {

    private static final Window[] WINDOWS = Window.values();

    private final WindowStartHours windowStarts;
    private final long firstHour;
    private final long lastHour;
    private final Predicate<ScopeKey> limited;
    private final Map<ScopeKey, HourlyTallies> tallies = new HashMap<>();

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

    /** The buckets of every scope key an authorization counted at the given ones is counted in. */
    ReplayedHolds.Buckets bucketsOf(List<ScopeKey> countedAt) {
        return (hour, amount, count) -> {
            for (ScopeKey scopeKey : countedAt) {
                if (limited.test(scopeKey)) {
                    tallies.computeIfAbsent(scopeKey, unused -> new HourlyTallies(firstHour, lastHour))
                            .add(hour, amount, count);
                }
            }
        };
    }
}
