package io.risklimits.backtest;

import io.risklimits.decision.Tally;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Window;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One key's usage during its replay, as the live decider would hold it in risk_hourly_agg: what is
 * counted per hour bucket (approvals, increments and over-captures, less releases).
 */
final class KeyState implements ReplayedHolds.Buckets {

    private static final Window[] WINDOWS = Window.values();

    private final WindowStartHours windowStarts;
    private final HourlyTallies tallies;

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

    /** Adds to the bucket of the hour (a negative amount and count take away). */
    @Override
    public void add(long hour, long amount, long count) {
        tallies.add(hour, amount, count);
    }
}
