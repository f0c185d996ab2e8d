package io.risklimits.backtest;

import io.risklimits.decision.Tally;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.Window;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One key's state during its replay, as the live decider would hold it in risk_hourly_agg and the
 * audit log: the approved tallies per hour bucket (less releases), and every decision a reversal may
 * name as its original.
 */
final class KeyState {

    private static final Window[] WINDOWS = Window.values();

    private final WindowStartHours windowStarts;
    private final HourlyTallies tallies;
    private final Map<UUID, ReplayedOriginal> decisions = new HashMap<>();

    private KeyState(WindowStartHours windowStarts, HourlyTallies tallies) {
        this.windowStarts = windowStarts;
        this.tallies = tallies;
    }

    /** An empty state covering the hour buckets of the rows. */
    static KeyState covering(List<AuditRow> rows, WindowStartHours windowStarts) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (AuditRow row : rows) {
            first = Math.min(first, row.bucketHour());
            last = Math.max(last, row.bucketHour());
        }
        return new KeyState(windowStarts, rows.isEmpty() ? new HourlyTallies(0, 0) : new HourlyTallies(first, last));
    }

    /** The key's usage in every window ending with the bucket: the buckets from each window's start on. */
    Usage usageAt(long bucketHour) {
        long[] starts = windowStarts.startsFor(bucketHour);
        Map<Window, Tally> byWindow = new EnumMap<>(Window.class);
        for (Window window : WINDOWS) {
            if (window.countsUsage()) {
                byWindow.put(window, tallies.sumFrom(starts[window.ordinal()]));
            }
        }
        return new Usage(byWindow);
    }

    /** An approved authorization, counted in its bucket. */
    void count(AuditRow authorization) {
        tallies.add(authorization.bucketHour(), authorization.amount(), 1);
    }

    /** A release, taken from the bucket its original was counted in. */
    void release(ReplayedOriginal original, long amount, long count) {
        tallies.add(original.bucketHour(), -amount, -count);
        original.released(amount);
    }

    /** Files a decision (with the verdict it has in the replay), so later reversals can find it. */
    void file(AuditRow row, Verdict verdict) {
        decisions.put(row.dedupeId(), new ReplayedOriginal(row.type(), verdict, row.amount(), row.bucketHour()));
    }

    /** The decision the reversal names, null when the key has none (unknown, or archived). */
    ReplayedOriginal originalOf(AuditRow reversal) {
        return decisions.get(reversal.reverses());
    }
}
