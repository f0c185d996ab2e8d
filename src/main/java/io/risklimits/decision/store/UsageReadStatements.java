package io.risklimits.decision.store;

/**
 * The statements of the usage read ({@link RunningUsageRepository}), templates for either bucket table
 * ({@link BucketTable}).
 */
final class UsageReadStatements {

    // The latest bucket of each key whose window starts are remembered: one backward probe of its
    // buckets by the primary key. A template for either bucket table (BucketTable).
    static final String SELECT_LATEST = """
            SELECT {key.columns},
                   latest.bucket_ts AS latest_bucket_ts, latest.running_amount AS latest_running_amount,
                   latest.running_count AS latest_running_count, latest.ctid AS latest_row_id,
                   latest.rewrites AS latest_rewrites
            FROM unnest({arrays}) AS key ({columns})
            LEFT JOIN LATERAL (SELECT ctid, bucket_ts, running_amount, running_count, rewrites
                               FROM {table} bucket
                               WHERE {bucket.key} = {key.key}
                               ORDER BY bucket.bucket_ts DESC
                               LIMIT 1) AS latest ON true
            """;

    // The latest bucket of each key whose window starts are not remembered, as SELECT_LATEST reads it,
    // and its window starts: the running totals before a window are those before its first bucket;
    // without a bucket in the window, those of the latest bucket (older than the window); without any
    // bucket, zero. One index-only range scan reads the key's buckets since the earliest window start
    // (:earliestStart), at most :recentBuckets of them: a key seen seldom (a card portfolio's) has a
    // few, and every window's first bucket is among them (the recent arrays; the caller picks each
    // window's). Only a key with more buckets than that in its longest window is probed once per window
    // start (:windowStarts, in Window order, the 24h window's first), each an index-only scan (the
    // starts arrays, and bucket_in_24h: the key has a bucket in the last 24 hours, which the archiver
    // cannot delete, so its starts may be remembered, WindowStarts).
    // A bucket's epoch is date_part's double precision, exact for whole seconds, not extract's numeric,
    // whose arithmetic is slower. Buckets after the decision's bucket are counted too, as in
    // HourlyUsageRepository. A template for either bucket table (BucketTable).
    static final String SELECT_USAGE = """
            SELECT {key.columns},
                   latest.bucket_ts AS latest_bucket_ts, latest.running_amount AS latest_running_amount,
                   latest.running_count AS latest_running_count, latest.ctid AS latest_row_id,
                   latest.rewrites AS latest_rewrites,
                   recent.buckets AS recent_buckets, recent.bucket_epochs AS recent_bucket_epochs,
                   recent.amounts_before AS recent_amounts_before, recent.counts_before AS recent_counts_before,
                   starts.amounts_before, starts.counts_before, coalesce(starts.bucket_in_24h, false) AS bucket_in_24h
            FROM unnest({arrays}) AS key ({columns})
            LEFT JOIN LATERAL (SELECT ctid, bucket_ts, running_amount, running_count, rewrites
                               FROM {table} bucket
                               WHERE {bucket.key} = {key.key}
                               ORDER BY bucket.bucket_ts DESC
                               LIMIT 1) AS latest ON true
            LEFT JOIN LATERAL (
                SELECT count(*) AS buckets,
                       array_agg(CAST(date_part('epoch', since_earliest.bucket_ts) AS bigint)
                                 ORDER BY since_earliest.bucket_ts) AS bucket_epochs,
                       array_agg(since_earliest.amount_before ORDER BY since_earliest.bucket_ts) AS amounts_before,
                       array_agg(since_earliest.count_before ORDER BY since_earliest.bucket_ts) AS counts_before
                FROM (SELECT bucket.bucket_ts, bucket.amount_before, bucket.count_before
                      FROM {table} bucket
                      WHERE {bucket.key} = {key.key}
                        AND bucket.bucket_ts >= CAST(:earliestStart AS timestamp)
                      ORDER BY bucket.bucket_ts
                      LIMIT :recentBuckets) AS since_earliest) AS recent ON true
            LEFT JOIN LATERAL (
                SELECT array_agg(coalesce(first_bucket.amount_before, latest.running_amount, 0)
                                 ORDER BY window_start.position) AS amounts_before,
                       array_agg(coalesce(first_bucket.count_before, latest.running_count, 0)
                                 ORDER BY window_start.position) AS counts_before,
                       bool_or(window_start.position = 1 AND first_bucket.amount_before IS NOT NULL) AS bucket_in_24h
                FROM unnest(CAST(:windowStarts AS timestamp[])) WITH ORDINALITY AS window_start (since, position)
                LEFT JOIN LATERAL (SELECT amount_before, count_before
                                   FROM {table} bucket
                                   WHERE {bucket.key} = {key.key}
                                     AND bucket.bucket_ts >= window_start.since
                                   ORDER BY bucket.bucket_ts
                                   LIMIT 1) AS first_bucket ON true
                WHERE recent.buckets = :recentBuckets) AS starts ON true
            """;

    // at most this many buckets since the earliest window start are read in one range scan; a key with
    // this many is probed per window start instead
    static final int RECENT_BUCKETS = 32;

    private UsageReadStatements() {}
}
