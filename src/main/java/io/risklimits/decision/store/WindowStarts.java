package io.risklimits.decision.store;

import io.risklimits.decision.Tally;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Window;
import java.math.BigDecimal;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * A business key's running totals just before each window that ends with one hour bucket: the sum
 * of all its buckets before the window's first hour. A window's usage is the key's latest running
 * totals minus these.
 *
 * <p>For a key with a bucket in the last 24 hours they do not change within the hour: every window's
 * start is fixed for the hour bucket (a calendar window's start moves only at the zone's midnight,
 * which falls on an hour since the zone's offset is whole hours, and is computed for the bucket, so a
 * 23- or 25-hour day of a daylight-saving change needs nothing more). They are stored on each window's first bucket, which the archiver cannot delete (retention
 * is never shorter than the longest window), so the key's running totals go on from it. The decider
 * writes buckets only at the database clock's current hour, under the key's lock, after the clock is
 * read, so every bucket before a window's first hour is final once the hour has begun, but for
 * rewrites: a reversal releases limit from the hour its original was counted in, which lowers the
 * totals before every window that no longer holds that hour, and those a window holding no bucket of
 * the key starts from, which are its latest bucket's; a clock that stepped back could add to an
 * earlier hour; and a writer that leaves the totals to the triggers (an operator, a bulk load) may
 * change any bucket, the latest too, or add a new latest one. A release is counted on the bucket it
 * releases from and every later one, an addition to an earlier hour on every later bucket, a write
 * through the triggers on the bucket it writes and every later one ({@link #rewrites}); the decider's
 * addition to its hour's bucket counts none. So remembered starts are used only while the key's
 * latest bucket carries the count they were read with. Without a bucket in the last 24 hours they may
 * change: once the archiver has deleted all of a key's buckets, its next bucket's totals start from
 * zero again.
 */
record WindowStarts(Map<Window, Before> byWindow, long rewrites) {

    private static final BigDecimal LARGEST_LONG = BigDecimal.valueOf(Long.MAX_VALUE);

    WindowStarts(Map<Window, Before> byWindow) {
        this(byWindow, 0);
    }

    /**
     * Whether these starts still hold for a key whose latest bucket is this: a release (into the latest
     * hour too), any write before the latest hour, or any write through the triggers changes the totals
     * before a window, and the count of rewrites the latest bucket carries with them.
     */
    boolean holdFor(LatestBucket latest) {
        return latest != null && latest.rewrites() == rewrites;
    }

    /** The running totals of the key just before a window. */
    record Before(BigDecimal amount, long count) {}

    WindowStarts {
        byWindow = Map.copyOf(byWindow);
        for (Window window : Window.values()) {
            if (window.countsUsage() && !byWindow.containsKey(window)) {
                throw new IllegalArgumentException("window starts lack window " + window.label());
            }
        }
    }

    /**
     * Usage in each window, given the key's latest bucket (null for a key without buckets). An amount
     * past the long range is Long.MAX_VALUE, which stands for that much or more ({@link Tally}). Empty
     * when some window's usage would be below zero: then these are not the starts of the totals the
     * latest bucket carries.
     */
    Optional<Usage> usageUpTo(LatestBucket latest) {
        BigDecimal runningAmount = latest == null ? BigDecimal.ZERO : latest.runningAmount();
        long runningCount = latest == null ? 0 : latest.runningCount();
        Map<Window, Tally> usage = new EnumMap<>(Window.class);
        for (Map.Entry<Window, Before> window : byWindow.entrySet()) {
            BigDecimal amount = runningAmount.subtract(window.getValue().amount());
            long count = runningCount - window.getValue().count();
            if (amount.signum() < 0 || count < 0) {
                return Optional.empty();
            }
            usage.put(
                    window.getKey(),
                    new Tally(amount.compareTo(LARGEST_LONG) > 0 ? Long.MAX_VALUE : amount.longValueExact(), count));
        }
        return Optional.of(new Usage(usage));
    }
}
