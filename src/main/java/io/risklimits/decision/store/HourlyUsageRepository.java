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
 * The hourly buckets of every scope, kept in chunks of up to 24 (V13; risk_hourly_chunk for business keys,
 * risk_scope_hourly_chunk for the other scopes, {@link BucketTable}): adds what a batch approved to each
 * scope key's bucket of the hour, and gives back what its reversals released, with the running totals.
 * Each statement is a template for either table.
 */
@Repository
class HourlyUsageRepository {

    private static final LatestBucket NO_BUCKET = new LatestBucket(Instant.EPOCH, BigDecimal.ZERO, 0, 0, null, 0);

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
                    .with("hour", SqlTime.hourNumber(bucket))
                    .add("hours", release -> SqlTime.hourNumber(release.bucketTs()), Integer[]::new)
                    .add("amounts", release -> release.released().amount(), Long[]::new)
                    .add("counts", release -> Math.toIntExact(release.released().count()), Integer[]::new);
            trip.execute(table.sql(BucketWriteStatements.RELEASE_FROM_BUCKETS), parameters.parameters());
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
            trip.execute(BucketWriteStatements.RUNNING_TOTALS_WRITTEN_BY_TRIGGERS, new MapSqlParameterSource());
            trip.execute(
                    table.sql(BucketWriteStatements.ADD_TO_BUCKETS),
                    added(table, approved, bucket).parameters());
            trip.execute(BucketWriteStatements.RUNNING_TOTALS_WRITTEN_BY_STATEMENT, new MapSqlParameterSource());
            return;
        }
        Map<ScopeKey, Tally> toCurrent = new LinkedHashMap<>();
        List<LatestBucket> current = new ArrayList<>();
        Map<ScopeKey, Tally> toAppend = new LinkedHashMap<>();
        List<LatestBucket> appendedTo = new ArrayList<>();
        Map<ScopeKey, Tally> toNew = new LinkedHashMap<>();
        approved.forEach((key, tally) -> {
            LatestBucket latest = latestBuckets.get(key);
            if (latest != null && latest.bucketTs().equals(bucket)) {
                toCurrent.put(key, tally);
                current.add(latest);
            } else if (latest != null && latest.chunkHasRoom()) {
                toAppend.put(key, tally);
                appendedTo.add(latest);
            } else {
                toNew.put(key, tally);
            }
        });
        if (!toCurrent.isEmpty()) {
            addWhereRead(
                    table, BucketWriteStatements.ADD_TO_CURRENT_BUCKETS_WHERE_READ, toCurrent, current, bucket, trip);
        }
        if (!toAppend.isEmpty()) {
            addWhereRead(
                    table,
                    BucketWriteStatements.APPEND_TO_LATEST_CHUNKS_WHERE_READ,
                    toAppend,
                    appendedTo,
                    bucket,
                    trip);
        }
        if (!toNew.isEmpty()) {
            addInNewChunks(table, toNew, bucket, latestBuckets, trip);
        }
    }

    /**
     * The keys' newest chunks, found where the usage read found each key's latest bucket (in the keys'
     * order): added to this hour's bucket, or appended to, as the statement says.
     */
    private static void addWhereRead(
            BucketTable table,
            String statement,
            Map<ScopeKey, Tally> approved,
            List<LatestBucket> latest,
            Instant bucket,
            RoundTrip trip) {
        MapSqlParameterSource parameters = added(table, approved, bucket)
                .alongside(latest)
                .add("rowIds", LatestBucket::rowId, String[]::new)
                .add("latestHours", read -> SqlTime.hourNumber(read.bucketTs()), Integer[]::new)
                .parameters();
        trip.executeChanging(
                table.sql(statement),
                parameters,
                approved.size(),
                "adding to the keys' newest chunks where they were read");
    }

    private static void addInNewChunks(
            BucketTable table,
            Map<ScopeKey, Tally> approved,
            Instant bucket,
            Map<ScopeKey, LatestBucket> latestBuckets,
            RoundTrip trip) {
        List<LatestBucket> before = new ArrayList<>(approved.size());
        approved.keySet().forEach(key -> before.add(latestBuckets.getOrDefault(key, NO_BUCKET)));
        ColumnArrays<LatestBucket> parameters = added(table, approved, bucket)
                .alongside(before)
                .add("amountsBefore", totals -> totals.runningAmount().toPlainString(), String[]::new)
                .add("countsBefore", LatestBucket::runningCount, Long[]::new)
                .add("rewrites", LatestBucket::rewrites, Long[]::new);
        trip.execute(table.sql(BucketWriteStatements.ADD_IN_NEW_CHUNKS), parameters.parameters());
    }

    /** Each key's added tally and the bucket, as parameters. */
    private static ColumnArrays<Map.Entry<ScopeKey, Tally>> added(
            BucketTable table, Map<ScopeKey, Tally> approved, Instant bucket) {
        return ColumnArrays.keyedIn(table, List.copyOf(approved.entrySet()), Map.Entry::getKey)
                .add("amounts", entry -> entry.getValue().amount(), Long[]::new)
                .add("counts", entry -> Math.toIntExact(entry.getValue().count()), Integer[]::new)
                .with("bucket", utcTimestamp(bucket))
                .with("hour", SqlTime.hourNumber(bucket));
    }

    /** The rows grouped by the bucket table of their scope keys, each group in the rows' order. */
    private static <T> Map<BucketTable, List<T>> byTable(List<T> rows, Function<T, ScopeKey> key) {
        Map<BucketTable, List<T>> byTable = new EnumMap<>(BucketTable.class);
        rows.forEach(row -> byTable.computeIfAbsent(BucketTable.of(key.apply(row)), table -> new ArrayList<>())
                .add(row));
        return byTable;
    }
}
