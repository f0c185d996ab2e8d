package io.risklimits.decision;

import java.math.BigDecimal;
import java.util.EnumMap;
import java.util.Map;

/**
 * A business key's running totals just before each window that ends with one hour bucket: the sum
 * of all its buckets before the window's first hour. A window's usage is the key's latest running
 * totals minus these.
 *
 * <p>Within the hour they do not change: buckets are written only at the database clock's current
 * hour, under the key's lock, after the clock is read, so every bucket before a window's first hour
 * is final once the hour has begun. Only a database clock that stepped back a day or more could add to
 * such a bucket; the usage computed from totals remembered before that is then too high by what was
 * added, never too low.
 */
record WindowStarts(Map<Window, Before> byWindow) {

    /** The running totals of the key just before a window. */
    record Before(BigDecimal amount, long count) {}

    WindowStarts {
        byWindow = Map.copyOf(byWindow);
        for (Window window : Window.values()) {
            if (!byWindow.containsKey(window)) {
                throw new IllegalArgumentException("window starts lack window " + window.label());
            }
        }
    }

    /** Usage in each window, given the key's latest bucket (null for a key without buckets). */
    Usage usageUpTo(LatestBucket latest) {
        BigDecimal runningAmount = latest == null ? BigDecimal.ZERO : latest.runningAmount();
        long runningCount = latest == null ? 0 : latest.runningCount();
        Map<Window, Tally> usage = new EnumMap<>(Window.class);
        byWindow.forEach((window, before) -> usage.put(
                window,
                new Tally(runningAmount.subtract(before.amount()).longValueExact(), runningCount - before.count())));
        return new Usage(usage);
    }
}
