package io.risklimits.decision.store;

import io.risklimits.decision.Tally;
import java.math.BigDecimal;
import java.time.Instant;

/**
 * A business key's latest hour bucket and its running totals, as read under the key's lock: the
 * totals a new, later bucket of the key continues from, and how often its history was rewritten. rowId is where the bucket's row was read
 * (its ctid), so that the batch can add to it without looking it up again; null for a bucket not
 * read from the table.
 */
record LatestBucket(Instant bucketTs, BigDecimal runningAmount, long runningCount, long rewrites, String rowId) {

    LatestBucket(Instant bucketTs, BigDecimal runningAmount, long runningCount, String rowId) {
        this(bucketTs, runningAmount, runningCount, 0, rowId);
    }

    /** The running totals of a new bucket after this one that holds the given tally. */
    LatestBucket followedBy(Instant laterBucket, Tally added) {
        return new LatestBucket(
                laterBucket,
                runningAmount.add(BigDecimal.valueOf(added.amount())),
                runningCount + added.count(),
                rewrites,
                null);
    }
}
