package io.risklimits.backtest;

import io.risklimits.decision.Window;
import io.risklimits.decision.WindowCalendar;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Where each usage window starts for a given hour bucket, in hours since the epoch, as the live
 * decider's {@link WindowCalendar} places it. Remembered per bucket: a period of a few weeks has a few
 * hundred distinct buckets, and the calendar windows cost a time-zone computation each.
 */
final class WindowStartHours {

    private static final int REMEMBERED_BUCKETS = 100_000;
    private static final Window[] WINDOWS = Window.values();

    private final WindowCalendar calendar;
    private final Map<Long, long[]> startsByBucket = new HashMap<>();

    WindowStartHours(WindowCalendar calendar) {
        this.calendar = calendar;
    }

    /** The start hour of every window that counts usage, indexed by the window's ordinal (txn: unused). */
    long[] startsFor(long bucketHour) {
        long[] starts = startsByBucket.get(bucketHour);
        if (starts == null) {
            if (startsByBucket.size() >= REMEMBERED_BUCKETS) {
                startsByBucket.clear();
            }
            starts = compute(bucketHour);
            startsByBucket.put(bucketHour, starts);
        }
        return starts;
    }

    private long[] compute(long bucketHour) {
        Instant bucket = Instant.ofEpochSecond(bucketHour * 3600);
        long[] starts = new long[WINDOWS.length];
        for (Window window : WINDOWS) {
            if (window.countsUsage()) {
                starts[window.ordinal()] = calendar.startFor(window, bucket).getEpochSecond() / 3600;
            }
        }
        return starts;
    }
}
