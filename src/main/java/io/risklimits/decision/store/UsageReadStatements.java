package io.risklimits.decision.store;

import io.risklimits.decision.Window;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

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
    // and its window starts: the running totals before each window (:windowStarts, in Window order, the 24h
    // window's first) are those before its first bucket; without a bucket in the window, those of the latest
    // bucket (older than the window); without any bucket, zero. One index-only range scan reads the key's
    // buckets since the earliest window start (:earliestStart), at most :recentBuckets of them: a key seen
    // seldom (a card portfolio's) has a few, and every window's first bucket is among them. The totals before
    // a bucket only grow with its hour (every bucket's amount and count are zero or more, and each bucket
    // carries the totals of those before it), so those before a window's first bucket are the least of those
    // before its buckets, which the statement takes as it scans (leastBeforeEachWindow): the key's starts
    // come back as two arrays of a total per window, not as its buckets. Only a key with :recentBuckets or
    // more buckets in its longest window is probed once per window start instead, each an index-only scan
    // (starts). bucket_in_24h: the key has a bucket in the last 24 hours, which the archiver cannot delete,
    // so its starts may be remembered (WindowStarts). The window starts are cast once per statement
    // (window_start), not once per key, and compared as columns of their own. Buckets after the decision's
    // bucket are counted too, as in HourlyUsageRepository. A template for either bucket table (BucketTable).
    static final String SELECT_USAGE = """
            WITH window_start AS MATERIALIZED (
                SELECT since, {eachWindowStart}
                FROM (SELECT CAST(:windowStarts AS timestamp[]) AS since) AS cast_once
            )
            SELECT {key.columns},
                   latest.bucket_ts AS latest_bucket_ts, latest.running_amount AS latest_running_amount,
                   latest.running_count AS latest_running_count, latest.ctid AS latest_row_id,
                   latest.rewrites AS latest_rewrites,
                   coalesce(starts.amounts_before, recent.amounts_before) AS amounts_before,
                   coalesce(starts.counts_before, recent.counts_before) AS counts_before,
                   coalesce(starts.bucket_in_24h, recent.bucket_in_24h) AS bucket_in_24h
            FROM unnest({arrays}) AS key ({columns})
            CROSS JOIN window_start
            LEFT JOIN LATERAL (SELECT ctid, bucket_ts, running_amount, running_count, rewrites
                               FROM {table} bucket
                               WHERE {bucket.key} = {key.key}
                               ORDER BY bucket.bucket_ts DESC
                               LIMIT 1) AS latest ON true
            LEFT JOIN LATERAL (
                SELECT count(*) AS buckets,
                       ARRAY[{amountsBeforeEachWindow}] AS amounts_before,
                       ARRAY[{countsBeforeEachWindow}] AS counts_before,
                       coalesce(bool_or(since_earliest.bucket_ts >= window_start.since_1), false) AS bucket_in_24h
                FROM (SELECT bucket.bucket_ts, bucket.amount_before, bucket.count_before
                      FROM {table} bucket
                      WHERE {bucket.key} = {key.key}
                        AND bucket.bucket_ts >= CAST(:earliestStart AS timestamp)
                      ORDER BY bucket.bucket_ts
                      LIMIT :recentBuckets) AS since_earliest) AS recent ON true
            LEFT JOIN LATERAL (
                SELECT array_agg(coalesce(first_bucket.amount_before, latest.running_amount, 0)
                                 ORDER BY each_start.position) AS amounts_before,
                       array_agg(coalesce(first_bucket.count_before, latest.running_count, 0)
                                 ORDER BY each_start.position) AS counts_before,
                       bool_or(each_start.position = 1 AND first_bucket.amount_before IS NOT NULL) AS bucket_in_24h
                FROM unnest(window_start.since) WITH ORDINALITY AS each_start (since, position)
                LEFT JOIN LATERAL (SELECT amount_before, count_before
                                   FROM {table} bucket
                                   WHERE {bucket.key} = {key.key}
                                     AND bucket.bucket_ts >= each_start.since
                                   ORDER BY bucket.bucket_ts
                                   LIMIT 1) AS first_bucket ON true
                WHERE recent.buckets = :recentBuckets) AS starts ON true
            """.replace("{eachWindowStart}", eachWindowStart())
            .replace("{amountsBeforeEachWindow}", leastBeforeEachWindow("amount_before", "running_amount"))
            .replace("{countsBeforeEachWindow}", leastBeforeEachWindow("count_before", "running_count"));

    // at most this many buckets since the earliest window start are read in one range scan; a key with
    // this many is probed per window start instead
    static final int RECENT_BUCKETS = 32;

    // Each window's start as a column of its own, since_1 to since_n in Window order: compared with every
    // bucket scanned, a column costs less than an element of the array.
    private static String eachWindowStart() {
        return forEachWindow("since[%1$d] AS since_%1$d", ", ");
    }

    // For each window that counts usage, in Window order, the least of the totals before the scanned buckets
    // in the window, or the latest bucket's totals without one, or zero: the elements of one of SELECT_USAGE's
    // arrays of window starts.
    private static String leastBeforeEachWindow(String beforeColumn, String latestColumn) {
        String eachWindow = ("coalesce(min(since_earliest.%s) FILTER (WHERE since_earliest.bucket_ts >= "
                        + "window_start.since_%%1$d), latest.%s, 0)")
                .formatted(beforeColumn, latestColumn);
        return forEachWindow(eachWindow, ",\n                             ");
    }

    // The format once per window that counts usage, with the window's position (1 to n, in Window order)
    private static String forEachWindow(String format, String separator) {
        return IntStream.rangeClosed(1, Window.USAGE_WINDOWS.size())
                .mapToObj(format::formatted)
                .collect(Collectors.joining(separator));
    }

    private UsageReadStatements() {}
}
