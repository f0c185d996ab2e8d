package io.risklimits.decision.store;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A scope key's latest hour bucket and its running totals, as read under the key's lock: the totals a
 * new, later bucket of the key continues from, and how often its history was rewritten (its chunk's
 * count). rowId is where the row of the chunk that holds it was read (its ctid), so that the batch can
 * add to the bucket, or append the next one to the chunk, without looking it up again; null for a
 * bucket not read from the table. chunkBuckets is how many buckets that chunk holds (up to {@link
 * #CHUNK_BUCKETS}).
 */
record LatestBucket(
        Instant bucketTs, BigDecimal runningAmount, long runningCount, long rewrites, String rowId, int chunkBuckets) {

    /** The most buckets a chunk holds (V13). */
    static final int CHUNK_BUCKETS = 24;

    LatestBucket(Instant bucketTs, BigDecimal runningAmount, long runningCount, String rowId) {
        this(bucketTs, runningAmount, runningCount, 0, rowId, 1);
    }

    /** Whether the next bucket of the key goes into this one's chunk, read where rowId says. */
    boolean chunkHasRoom() {
        return rowId != null && chunkBuckets < CHUNK_BUCKETS;
    }
}
