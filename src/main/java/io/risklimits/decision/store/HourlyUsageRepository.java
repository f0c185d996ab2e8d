package io.risklimits.decision.store;

import static io.risklimits.decision.store.SqlTime.utcTimestamp;

import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Tally;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The hourly buckets of every scope (risk_hourly_agg for business keys, risk_scope_hourly_agg for the other
 * scopes, {@link BucketTable}): adds what a batch approved to each scope key's bucket of the hour, and gives
 * back what its reversals released, with the running totals. Each statement is a template for either table.
 */
@Repository
class HourlyUsageRepository {

    private static final LatestBucket NO_BUCKET = new LatestBucket(Instant.EPOCH, BigDecimal.ZERO, 0, 0, null);

    // Running totals written by the statements themselves (docs/adr/0001), not by the triggers: the
    // transaction tells the triggers first. risk_begin_scoped_batch_decision has told them already; the statement
    // that carries forward says it again itself, because with the triggers also carrying forward the
    // later buckets would count the addition twice.
    private static final String RUNNING_TOTALS_WRITTEN_BY_STATEMENT =
            "SELECT set_config('risk.running_totals_written_by', 'statement', true)";

    // Releases given back by follow-ups and expiries, each to the hour its original was counted in: that
    // bucket's amount (and count, when nothing of the original is counted any more) drops, and so do the
    // running totals of that bucket and of every later one, each of which counts the rewrite. The released
    // bucket counts it too: a window that holds no bucket of the key yet starts from the totals of the
    // key's latest bucket, so a release into the latest bucket changes what that window starts from
    // (WindowStarts). A release into the batch's own hour (:bucket) alone is no rewrite: every window
    // holds that hour, so each window's first bucket is that one or an earlier one, whose totals before
    // it the release leaves as they were.
    // A bucket past retention is gone: the later buckets' totals drop all the same, so every window's
    // usage stays right. Only inside a transaction begun by risk_begin_scoped_batch_decision, after the
    // batch's additions.
    private static final String RELEASE_FROM_BUCKETS = """
            UPDATE {table} bucket
            SET sum_amount     = bucket.sum_amount - released.own_amount,
                tx_count       = bucket.tx_count - released.own_count,
                running_amount = bucket.running_amount - released.carried_amount,
                running_count  = bucket.running_count - released.carried_count,
                rewrites       = bucket.rewrites + released.rewrite
            FROM (SELECT {later.columns}, later.bucket_ts,
                         coalesce(sum(release.amount) FILTER (WHERE release.bucket_ts = later.bucket_ts), 0)
                             AS own_amount,
                         coalesce(sum(release.count) FILTER (WHERE release.bucket_ts = later.bucket_ts), 0)
                             AS own_count,
                         sum(release.amount) AS carried_amount,
                         sum(release.count)  AS carried_count,
                         CASE WHEN min(release.bucket_ts) < CAST(:bucket AS timestamp) THEN 1 ELSE 0 END AS rewrite
                  FROM unnest({arrays}, CAST(:buckets AS timestamp[]), CAST(:amounts AS bigint[]),
                              CAST(:counts AS integer[]))
                       AS release ({columns}, bucket_ts, amount, count)
                  JOIN {table} later
                    ON {later.key} = {release.key}
                   AND later.bucket_ts >= release.bucket_ts
                  GROUP BY {later.columns}, later.bucket_ts) AS released
            WHERE {bucket.key} = {released.key}
              AND bucket.bucket_ts = released.bucket_ts
            """;

    // The usual case: no key has a bucket after this one. Most keys already have this hour's bucket,
    // their latest: it is updated where the usage read found it under the key's lock (its ctid),
    // without a second descent of the primary key. Under the lock no other decider writes the key's
    // buckets; should another writer (an operator) have moved the row all the same, the row is not
    // found there, and the count of rows updated fails the batch, whose events are then decided one by
    // one (BatchDecider), each looking its bucket up by key. The row found at the ctid must be the
    // key's bucket of this hour; that is checked with IS NOT DISTINCT FROM rather than =, which the
    // planner cannot use as an index condition, so the row is reached through its ctid alone,
    // whatever the statistics say of this hour's buckets (docs/benchmark.md).
    private static final String ADD_TO_CURRENT_BUCKETS_WHERE_READ = """
            WITH updated AS (
                UPDATE {table} bucket
                SET sum_amount     = bucket.sum_amount + added.sum_amount,
                    tx_count       = bucket.tx_count + added.tx_count,
                    running_amount = bucket.running_amount + added.sum_amount,
                    running_count  = bucket.running_count + added.tx_count
                FROM unnest(CAST(:rowIds AS tid[]), {arrays}, CAST(:amounts AS bigint[]), CAST(:counts AS integer[]))
                     AS added (row_id, {columns}, sum_amount, tx_count)
                WHERE bucket.ctid = added.row_id
                  AND ({bucket.columns}, bucket.bucket_ts) IS NOT DISTINCT FROM ({added.columns}, :bucket)
                RETURNING 1
            )
            SELECT count(*) FROM updated
            """;

    // The other keys of the usual case: a new bucket continues from the key's latest bucket as read
    // under its lock (the totals come with the parameters). A plain insert: under the lock no other
    // decider adds the key's bucket of this hour, and should another writer have added it all the same,
    // the insert fails on the primary key and the batch is decided again, its buckets read afresh
    // (BatchDecisionStore), which finds that bucket as the key's latest. Should the triggers not stand
    // aside, they compute the same totals (there are no later buckets to carry forward to): slower,
    // never wrong.
    private static final String ADD_TO_LATEST_BUCKETS = """
            INSERT INTO {table} ({columns}, bucket_ts, sum_amount, tx_count, running_amount, running_count, rewrites)
            SELECT {columns}, :bucket, sum_amount, tx_count, running_amount, running_count, rewrites
            FROM unnest({arrays}, CAST(:amounts AS bigint[]), CAST(:counts AS integer[]),
                        CAST(:runningAmounts AS numeric[]), CAST(:runningCounts AS bigint[]),
                        CAST(:rewrites AS bigint[]))
                 AS added ({columns}, sum_amount, tx_count, running_amount, running_count, rewrites)
            """;

    // Some key has buckets after this one (the database clock stepped back): each key's new bucket
    // continues from its latest earlier bucket, an existing bucket moves by what is added, and later
    // buckets carry the addition forward.
    private static final String ADD_TO_BUCKETS = """
            WITH added AS (
                SELECT *
                FROM unnest({arrays}, CAST(:amounts AS bigint[]), CAST(:counts AS integer[]))
                     AS added ({columns}, sum_amount, tx_count)
            ), carried_forward AS (
                UPDATE {table} later
                SET running_amount = later.running_amount + added.sum_amount,
                    running_count  = later.running_count + added.tx_count,
                    rewrites       = later.rewrites + 1
                FROM added
                WHERE {later.key} = {added.key}
                  AND later.bucket_ts > :bucket
            )
            INSERT INTO {table} ({columns}, bucket_ts, sum_amount, tx_count, running_amount, running_count, rewrites)
            SELECT {added.columns}, :bucket, added.sum_amount, added.tx_count,
                   coalesce(earlier.running_amount, 0) + added.sum_amount,
                   coalesce(earlier.running_count, 0) + added.tx_count,
                   coalesce(earlier.rewrites, 0)
            FROM added
            LEFT JOIN LATERAL (SELECT running_amount, running_count, rewrites
                               FROM {table} bucket
                               WHERE {bucket.key} = {added.key}
                                 AND bucket.bucket_ts < :bucket
                               ORDER BY bucket.bucket_ts DESC
                               LIMIT 1) AS earlier ON true
            ON CONFLICT ({columns}, bucket_ts)
            DO UPDATE SET sum_amount     = {table}.sum_amount + EXCLUDED.sum_amount,
                          tx_count       = {table}.tx_count + EXCLUDED.tx_count,
                          running_amount = {table}.running_amount + EXCLUDED.sum_amount,
                          running_count  = {table}.running_count + EXCLUDED.tx_count
            """;

    /** What a reversal gives back, at one scope key, to the bucket its original was counted in. */
    record Release(ScopeKey key, Instant bucketTs, Tally released) {}

    /**
     * Adds to the round trip the statements that give the releases back to their buckets, with the
     * running totals, one per bucket table. After {@link #addToBuckets}: the additions find the rows where
     * they were read.
     */
    void releaseFromBuckets(List<Release> releases, Instant bucket, RoundTrip trip) {
        byTable(releases, Release::key).forEach((table, tableReleases) -> {
            ColumnArrays<Release> parameters = ColumnArrays.keyedIn(table, tableReleases, Release::key)
                    .with("bucket", utcTimestamp(bucket).toString())
                    .add("buckets", release -> utcTimestamp(release.bucketTs()).toString(), String[]::new)
                    .add("amounts", release -> release.released().amount(), Long[]::new)
                    .add("counts", release -> Math.toIntExact(release.released().count()), Integer[]::new);
            trip.execute(table.sql(RELEASE_FROM_BUCKETS), parameters.parameters());
        });
    }

    /**
     * Adds to the round trip the statements that add each scope key's change of this hour to its bucket, one
     * row per key, with the running totals, given each key's latest bucket as read under its lock in this
     * transaction: what the batch counted anew there, less what it gave back to a bucket of this hour it read
     * as the key's latest ({@link BucketWrites}), so a change may be negative. Only inside a transaction begun by risk_begin_scoped_batch_decision, in which the
     * triggers stand aside.
     */
    void addToBuckets(
            Map<ScopeKey, Tally> approved, Instant bucket, Map<ScopeKey, LatestBucket> latestBuckets, RoundTrip trip) {
        if (approved.isEmpty()) {
            return;
        }
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("running totals are written in the deciding transaction only");
        }
        Map<BucketTable, List<Map.Entry<ScopeKey, Tally>>> byTable =
                byTable(List.copyOf(approved.entrySet()), Map.Entry::getKey);
        byTable.forEach((table, entries) -> {
            Map<ScopeKey, Tally> tableApproved = new LinkedHashMap<>();
            entries.forEach(entry -> tableApproved.put(entry.getKey(), entry.getValue()));
            addToBuckets(table, tableApproved, bucket, latestBuckets, trip);
        });
    }

    private static void addToBuckets(
            BucketTable table,
            Map<ScopeKey, Tally> approved,
            Instant bucket,
            Map<ScopeKey, LatestBucket> latestBuckets,
            RoundTrip trip) {
        boolean laterBucketsExist = approved.keySet().stream()
                .map(latestBuckets::get)
                .anyMatch(latest -> latest != null && latest.bucketTs().isAfter(bucket));
        if (laterBucketsExist) {
            trip.execute(RUNNING_TOTALS_WRITTEN_BY_STATEMENT, new MapSqlParameterSource());
            trip.execute(
                    table.sql(ADD_TO_BUCKETS), added(table, approved, bucket).parameters());
            return;
        }
        Map<ScopeKey, Tally> toCurrent = new LinkedHashMap<>();
        List<String> currentRowIds = new ArrayList<>();
        Map<ScopeKey, Tally> toNew = new LinkedHashMap<>();
        approved.forEach((key, tally) -> {
            LatestBucket latest = latestBuckets.get(key);
            if (latest != null && latest.bucketTs().equals(bucket)) {
                toCurrent.put(key, tally);
                currentRowIds.add(latest.rowId());
            } else {
                toNew.put(key, tally);
            }
        });
        if (!toCurrent.isEmpty()) {
            addToCurrentBuckets(table, toCurrent, currentRowIds, bucket, trip);
        }
        if (!toNew.isEmpty()) {
            addToNewBuckets(table, toNew, bucket, latestBuckets, trip);
        }
    }

    /** The keys' buckets of this hour, found at rowIds (in the keys' order) by the usage read. */
    private static void addToCurrentBuckets(
            BucketTable table, Map<ScopeKey, Tally> approved, List<String> rowIds, Instant bucket, RoundTrip trip) {
        MapSqlParameterSource parameters = added(table, approved, bucket)
                .with("rowIds", rowIds.toArray(String[]::new))
                .parameters();
        trip.executeChanging(
                table.sql(ADD_TO_CURRENT_BUCKETS_WHERE_READ),
                parameters,
                approved.size(),
                "adding to this hour's buckets where they were read");
    }

    private static void addToNewBuckets(
            BucketTable table,
            Map<ScopeKey, Tally> approved,
            Instant bucket,
            Map<ScopeKey, LatestBucket> latestBuckets,
            RoundTrip trip) {
        List<LatestBucket> after = new ArrayList<>(approved.size());
        approved.forEach((key, tally) ->
                after.add(latestBuckets.getOrDefault(key, NO_BUCKET).followedBy(bucket, tally)));
        ColumnArrays<LatestBucket> parameters = added(table, approved, bucket)
                .alongside(after)
                .add("runningAmounts", totals -> totals.runningAmount().toPlainString(), String[]::new)
                .add("runningCounts", LatestBucket::runningCount, Long[]::new)
                .add("rewrites", LatestBucket::rewrites, Long[]::new);
        trip.execute(table.sql(ADD_TO_LATEST_BUCKETS), parameters.parameters());
    }

    /** Each key's added tally and the bucket, as parameters. */
    private static ColumnArrays<Map.Entry<ScopeKey, Tally>> added(
            BucketTable table, Map<ScopeKey, Tally> approved, Instant bucket) {
        return ColumnArrays.keyedIn(table, List.copyOf(approved.entrySet()), Map.Entry::getKey)
                .add("amounts", entry -> entry.getValue().amount(), Long[]::new)
                .add("counts", entry -> Math.toIntExact(entry.getValue().count()), Integer[]::new)
                .with("bucket", utcTimestamp(bucket));
    }

    /** The rows grouped by the bucket table of their scope keys, each group in the rows' order. */
    private static <T> Map<BucketTable, List<T>> byTable(List<T> rows, Function<T, ScopeKey> key) {
        Map<BucketTable, List<T>> byTable = new EnumMap<>(BucketTable.class);
        rows.forEach(row -> byTable.computeIfAbsent(BucketTable.of(key.apply(row)), table -> new ArrayList<>())
                .add(row));
        return byTable;
    }
}
