package io.risklimits.decision.store;

import io.risklimits.decision.Window;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A scope key's chunks as the usage read returns them (V13), in hour order, from the one that holds its
 * earliest window start on: its latest bucket, and its running totals just before each window. The totals
 * before a bucket only grow with its hour (every bucket's amount and count are zero or more, and each
 * chunk carries the totals before its first bucket), so the totals before a window are those before its
 * first bucket; without a bucket in the window, those of the latest bucket (older than the window);
 * without any bucket, zero.
 */
final class KeyChunks {

    /** One chunk row: its buckets' hours, amounts and counts, and the totals before and after them. */
    record Chunk(
            String rowId,
            Integer[] hours,
            Long[] sums,
            Integer[] counts,
            BigDecimal amountBefore,
            long countBefore,
            BigDecimal runningAmount,
            long runningCount,
            long rewrites) {}

    private final List<Chunk> chunks;

    KeyChunks(List<Chunk> chunks) {
        this.chunks = List.copyOf(chunks);
    }

    /** The key's latest bucket, in its chunk; null without chunks. */
    LatestBucket latest() {
        if (chunks.isEmpty()) {
            return null;
        }
        Chunk newest = chunks.get(chunks.size() - 1);
        int buckets = newest.hours().length;
        return new LatestBucket(
                SqlTime.hourInstant(newest.hours()[buckets - 1]),
                newest.runningAmount(),
                newest.runningCount(),
                newest.rewrites(),
                newest.rowId(),
                buckets);
    }

    /** The running totals just before each window that counts usage, whose first hours these are. */
    WindowStarts startsOf(Map<Window, Integer> firstHours) {
        Map<Window, WindowStarts.Before> byWindow = new EnumMap<>(Window.class);
        firstHours.forEach((window, firstHour) -> byWindow.put(window, before(firstHour)));
        LatestBucket latest = latest();
        return new WindowStarts(byWindow, latest == null ? 0 : latest.rewrites());
    }

    /** Whether the key has a bucket at or after the hour. */
    boolean hasBucketSince(int hour) {
        LatestBucket latest = latest();
        return latest != null && SqlTime.hourNumber(latest.bucketTs()) >= hour;
    }

    // the totals before the key's first bucket at or after the hour
    private WindowStarts.Before before(int hour) {
        for (Chunk chunk : chunks) {
            Integer[] hours = chunk.hours();
            if (hours[hours.length - 1] < hour) {
                continue;
            }
            BigInteger amount = chunk.amountBefore().toBigIntegerExact();
            long count = chunk.countBefore();
            for (int i = 0; hours[i] < hour; i++) {
                amount = amount.add(BigInteger.valueOf(chunk.sums()[i]));
                count += chunk.counts()[i];
            }
            return new WindowStarts.Before(new BigDecimal(amount), count);
        }
        LatestBucket latest = latest();
        return latest == null
                ? new WindowStarts.Before(BigDecimal.ZERO, 0)
                : new WindowStarts.Before(latest.runningAmount(), latest.runningCount());
    }
}
