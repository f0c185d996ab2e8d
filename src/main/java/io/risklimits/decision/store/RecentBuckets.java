package io.risklimits.decision.store;

import java.math.BigDecimal;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/**
 * A key's buckets since its earliest window start, in time order, as one range scan of its primary key
 * read them: each bucket's hour and the running totals before it. Read whole (fewer than {@link
 * UsageReadStatements#RECENT_BUCKETS}), they hold every window's first bucket, so the totals before
 * any window are found among them, as a probe per window start would find them.
 */
final class RecentBuckets {

    private final Long[] epochSeconds;
    private final BigDecimal[] amountsBefore;
    private final Long[] countsBefore;

    private RecentBuckets(Long[] epochSeconds, BigDecimal[] amountsBefore, Long[] countsBefore) {
        this.epochSeconds = epochSeconds;
        this.amountsBefore = amountsBefore;
        this.countsBefore = countsBefore;
    }

    /** The recent_* columns of a usage row; no buckets when the arrays are null. */
    static RecentBuckets of(ResultSet rs) throws SQLException {
        Array epochs = rs.getArray("recent_bucket_epochs");
        if (epochs == null) {
            return new RecentBuckets(new Long[0], new BigDecimal[0], new Long[0]);
        }
        return new RecentBuckets(
                (Long[]) epochs.getArray(),
                (BigDecimal[]) rs.getArray("recent_amounts_before").getArray(),
                (Long[]) rs.getArray("recent_counts_before").getArray());
    }

    /**
     * The running totals before the window that starts at this hour: those before its first bucket;
     * without a bucket in the window, the latest bucket's (older than the window); without any, zero.
     */
    WindowStarts.Before before(Instant windowStart, LatestBucket latest) {
        int first = firstSince(windowStart);
        if (first < epochSeconds.length) {
            return new WindowStarts.Before(amountsBefore[first], countsBefore[first]);
        }
        return latest == null
                ? new WindowStarts.Before(BigDecimal.ZERO, 0)
                : new WindowStarts.Before(latest.runningAmount(), latest.runningCount());
    }

    /** Whether some bucket is at or after this hour. */
    boolean anySince(Instant hour) {
        return firstSince(hour) < epochSeconds.length;
    }

    private int firstSince(Instant hour) {
        long since = hour.getEpochSecond();
        int i = 0;
        while (i < epochSeconds.length && epochSeconds[i] < since) {
            i++;
        }
        return i;
    }
}
