package io.risklimits.decision.store;

/**
 * The statements of the bucket writes ({@link HourlyUsageRepository}), templates for either bucket table
 * ({@link BucketTable}), which holds a scope key's hourly buckets in chunks of up to 24 (V13).
 */
final class BucketWriteStatements {

    // For the one statement that writes through the views (ADD_TO_BUCKETS): their triggers keep the
    // running totals for it, where risk_begin_scoped_batch_decision told them the statements write them.
    static final String RUNNING_TOTALS_WRITTEN_BY_TRIGGERS =
            "SELECT set_config('risk.running_totals_written_by', 'triggers', true)";
    static final String RUNNING_TOTALS_WRITTEN_BY_STATEMENT =
            "SELECT set_config('risk.running_totals_written_by', 'statement', true)";

    // Releases given back by follow-ups and expiries, each to the hour its original was counted in: that
    // bucket's amount (and count, when nothing of the original is counted any more) drops, and so do the
    // running totals of its chunk and of every later chunk of the key, each of which counts the rewrite
    // (a later chunk's totals before it drop too). The chunk holding the released bucket counts it too: a
    // window that holds no bucket of the key yet starts from the totals of the key's latest bucket, so a
    // release into the latest bucket changes what that window starts from (WindowStarts). A release into
    // the batch's own hour (:hour) alone is no rewrite: every window holds that hour, so each window's
    // first bucket is that one or an earlier one, whose totals before it the release leaves as they were.
    // A bucket past retention is gone: the later chunks' totals drop all the same, so every window's usage
    // stays right. The chunks are found by key, not where they were read: the batch's additions, made
    // before in the same transaction, may have moved them. Only inside a transaction begun by
    // risk_begin_scoped_batch_decision, after the batch's additions.
    static final String RELEASE_FROM_BUCKETS = """
            UPDATE {table} chunk
            SET sums           = risk_chunk_less(chunk.hours, chunk.sums, released.hours, released.amounts),
                counts         = CAST(risk_chunk_less(chunk.hours, CAST(chunk.counts AS bigint[]), released.hours,
                                                      released.counts) AS integer[]),
                amount_before  = chunk.amount_before - released.amount_before_chunk,
                count_before   = chunk.count_before - released.count_before_chunk,
                running_amount = chunk.running_amount - released.carried_amount,
                running_count  = chunk.running_count - released.carried_count,
                rewrites       = chunk.rewrites + released.rewrite
            FROM (SELECT later.ctid AS row_id,
                         array_agg(release.hour) AS hours,
                         array_agg(release.amount) AS amounts,
                         array_agg(CAST(release.count AS bigint)) AS counts,
                         coalesce(sum(release.amount) FILTER (WHERE release.hour < later.hours[1]), 0)
                             AS amount_before_chunk,
                         coalesce(sum(release.count) FILTER (WHERE release.hour < later.hours[1]), 0)
                             AS count_before_chunk,
                         sum(release.amount) AS carried_amount,
                         sum(release.count)  AS carried_count,
                         CASE WHEN min(release.hour) < :hour THEN 1 ELSE 0 END AS rewrite
                  FROM unnest({arrays}, CAST(:hours AS integer[]), CAST(:amounts AS bigint[]),
                              CAST(:counts AS integer[]))
                       AS release ({columns}, hour, amount, count)
                  JOIN {table} later
                    ON {later.key} = {release.key}
                   AND later.hours[cardinality(later.hours)] >= release.hour
                  GROUP BY later.ctid, later.hours) AS released
            WHERE chunk.ctid = released.row_id
            """;

    // The usual case: no key has a bucket after this one. Many keys already have this hour's bucket,
    // their latest, the last of their newest chunk: it grows where the usage read found the chunk under
    // the key's lock (its ctid), without a second descent of the primary key. Under the lock no other
    // decider writes the key's buckets; should another writer (an operator) have moved the row all the
    // same, the row is not found there, and the count of rows updated fails the batch, whose events are
    // then decided one by one (BatchDecider). The row found at the ctid must be the key's chunk whose last
    // bucket is this hour's; that is checked with IS NOT DISTINCT FROM rather than =, which the planner
    // cannot use as an index condition, so the row is reached through its ctid alone, whatever the
    // statistics say (docs/benchmark.md).
    static final String ADD_TO_CURRENT_BUCKETS_WHERE_READ = """
            WITH updated AS (
                UPDATE {table} chunk
                SET sums[cardinality(chunk.sums)]     = chunk.sums[cardinality(chunk.sums)] + added.sum_amount,
                    counts[cardinality(chunk.counts)] = chunk.counts[cardinality(chunk.counts)] + added.tx_count,
                    running_amount = chunk.running_amount + added.sum_amount,
                    running_count  = chunk.running_count + added.tx_count
                FROM unnest(CAST(:rowIds AS tid[]), {arrays}, CAST(:amounts AS bigint[]), CAST(:counts AS integer[]))
                     AS added (row_id, {columns}, sum_amount, tx_count)
                WHERE chunk.ctid = added.row_id
                  AND ({chunk.columns}, chunk.hours[cardinality(chunk.hours)])
                      IS NOT DISTINCT FROM ({added.columns}, :hour)
                RETURNING 1
            )
            SELECT count(*) FROM updated
            """;

    // A key's first bucket of the hour, when its newest chunk has room: appended to that chunk where the
    // usage read found it, continuing from its totals (an update in place, HOT while its page has room:
    // no index entry changes). The row found at the ctid must still end with the bucket read as the key's
    // latest, as ADD_TO_CURRENT_BUCKETS_WHERE_READ checks.
    static final String APPEND_TO_LATEST_CHUNKS_WHERE_READ = """
            WITH updated AS (
                UPDATE {table} chunk
                SET hours          = chunk.hours || CAST(:hour AS integer),
                    sums           = chunk.sums || added.sum_amount,
                    counts         = chunk.counts || added.tx_count,
                    running_amount = chunk.running_amount + added.sum_amount,
                    running_count  = chunk.running_count + added.tx_count
                FROM unnest(CAST(:rowIds AS tid[]), {arrays}, CAST(:latestHours AS integer[]),
                            CAST(:amounts AS bigint[]), CAST(:counts AS integer[]))
                     AS added (row_id, {columns}, latest_hour, sum_amount, tx_count)
                WHERE chunk.ctid = added.row_id
                  AND ({chunk.columns}, chunk.hours[cardinality(chunk.hours)])
                      IS NOT DISTINCT FROM ({added.columns}, added.latest_hour)
                RETURNING 1
            )
            SELECT count(*) FROM updated
            """;

    // The other keys' first bucket of the hour: a new chunk, continuing from the key's latest bucket as
    // read under its lock (the totals come with the parameters). A plain insert: under the lock no other
    // decider adds the key's bucket of this hour, and should another writer have added it all the same,
    // the insert fails on the primary key and the batch is decided again, its buckets read afresh
    // (BatchDecisionStore), which finds that bucket as the key's latest.
    static final String ADD_IN_NEW_CHUNKS = """
            INSERT INTO {table} ({columns}, first_ts, hours, sums, counts, amount_before, count_before,
                                 running_amount, running_count, rewrites)
            SELECT {columns}, :bucket, ARRAY[CAST(:hour AS integer)], ARRAY[sum_amount], ARRAY[tx_count],
                   amount_before, count_before, amount_before + sum_amount, count_before + tx_count, rewrites
            FROM unnest({arrays}, CAST(:amounts AS bigint[]), CAST(:counts AS integer[]),
                        CAST(:amountsBefore AS numeric[]), CAST(:countsBefore AS bigint[]),
                        CAST(:rewrites AS bigint[]))
                 AS added ({columns}, sum_amount, tx_count, amount_before, count_before, rewrites)
            """;

    // Some key has buckets after this one (the database clock stepped back): written through the view of a
    // row per hour, whose triggers take the key's chunks apart from this hour on and keep the totals: an
    // existing bucket moves by what is added, a new one continues from the one before it, and later
    // buckets carry the addition forward, each counting a rewrite. Rare, and dearer than the usual case.
    static final String ADD_TO_BUCKETS = """
            WITH added AS (
                SELECT *
                FROM unnest({arrays}, CAST(:amounts AS bigint[]), CAST(:counts AS integer[]))
                     AS added ({columns}, sum_amount, tx_count)
            ), updated AS (
                UPDATE {view} bucket
                SET sum_amount = bucket.sum_amount + added.sum_amount,
                    tx_count   = bucket.tx_count + added.tx_count
                FROM added
                WHERE {bucket.key} = {added.key}
                  AND bucket.bucket_ts = :bucket
                RETURNING {bucket.columns}
            )
            INSERT INTO {view} ({columns}, bucket_ts, sum_amount, tx_count)
            SELECT {added.columns}, :bucket, added.sum_amount, added.tx_count
            FROM added
            WHERE NOT EXISTS (SELECT FROM updated WHERE {updated.key} = {added.key})
            """;

    private BucketWriteStatements() {}
}
