package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Tally;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.TestInfrastructure;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.JdbcUpdateAffectedIncorrectNumberOfRowsException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The running totals (derived by the triggers, or written by the batched decider's own statement:
 * docs/adr/0001-running-totals.md) must equal the prefix sums of the buckets, whatever order the
 * buckets are written in and however often a bucket is updated.
 */
@ExtendWith(NoRowsLeftBehind.class)
class RunningTotalsIT {

    private static final LocalDateTime START = LocalDateTime.of(2026, 1, 1, 0, 0);

    // one DataSource for all: statements inside a transaction run on the transaction's connection
    private final DataSource dataSource = TestInfrastructure.get().dataSource();
    private final JdbcTemplate db = new JdbcTemplate(dataSource);
    private final TransactionTemplate transaction =
            new TransactionTemplate(new DataSourceTransactionManager(dataSource));
    private final HourlyUsageRepository buckets = new HourlyUsageRepository();
    private final BatchedDeciderWrites batched = new BatchedDeciderWrites(db);
    private final Random random = new Random(7);
    private final TestKeys ownKeys = new TestKeys();

    @AfterEach
    void deleteTheRowsOfTheTestsKeys() {
        ownKeys.deleteTheirRows(db);
    }

    @Test
    void totalsAreThePrefixSumsWhateverTheWriteOrder() {
        UUID entity = ownKeys.newEntity();
        List<Integer> hours = new ArrayList<>();
        for (int hour = 0; hour < 200; hour++) {
            hours.add(hour);
        }
        Collections.shuffle(hours, random);
        for (int hour : hours) {
            addToBucket(entity, hour, 1 + random.nextInt(1000));
        }
        for (int i = 0; i < 300; i++) {
            addToBucket(entity, random.nextInt(200), 1 + random.nextInt(1000));
        }

        long buckets =
                db.queryForObject("SELECT count(*) FROM risk_hourly_agg WHERE entity_id = ?", Long.class, entity);
        assertThat(buckets).isEqualTo(200);
        assertThat(mismatches(entity)).isEmpty();
    }

    /**
     * The batched decider writes the totals in its own statements while the triggers stand aside,
     * continuing from the latest bucket it read, or carrying forward when later buckets exist; mixed
     * with writers that leave them to the triggers, and with hours written out of order (a database
     * clock that stepped back), every bucket's totals are still the prefix sums.
     */
    @Test
    void totalsWrittenByTheDecidersStatementAreThePrefixSumsToo() {
        UUID entity = ownKeys.newEntity();
        for (int i = 0; i < 300; i++) {
            int hour = random.nextInt(200);
            long amount = 1 + random.nextInt(1000);
            if (random.nextInt(4) == 0) {
                addToBucket(entity, hour, amount);
            } else {
                Instant bucket = START.plusHours(hour).toInstant(ZoneOffset.UTC);
                transaction.executeWithoutResult(status -> batched.addAtTheKey(entity, bucket, amount));
            }
        }

        assertThat(mismatches(entity)).isEmpty();
        assertThat(db.queryForObject(
                        "SELECT sum(tx_count) FROM risk_hourly_agg WHERE entity_id = ?", Long.class, entity))
                .isEqualTo(300);
    }

    /**
     * A writer that leaves the totals to the triggers gets them right whatever it wrote into them, in a
     * statement that changes several buckets of a key: each changed bucket moves from its totals before
     * the statement by its own change and its earlier buckets' changes, and counts a rewrite for each, on
     * the chunk that holds it and every later one (V13): the four buckets of one chunk all show its count.
     */
    @Test
    void anUpdateThatAlsoWritesTheTotalsGetsThemFromTheTriggers() {
        UUID entity = ownKeys.newEntity();
        for (int hour = 0; hour < 4; hour++) {
            addToBucket(entity, hour, 100);
        }
        List<Long> rewritesBefore = rewrites(entity);

        db.update("""
                UPDATE risk_hourly_agg
                SET sum_amount = sum_amount + 50, tx_count = tx_count + 1,
                    running_amount = 0, running_count = 0, rewrites = 0
                WHERE entity_id = ? AND bucket_ts IN (?, ?)
                """, entity, Timestamp.valueOf(START.plusHours(1)), Timestamp.valueOf(START.plusHours(2)));

        assertThat(mismatches(entity)).isEmpty();
        List<Long> rewritesAfter = rewrites(entity);
        assertThat(rewritesAdded(rewritesBefore, rewritesAfter)).containsExactly(2L, 2L, 2L, 2L);
    }

    /** The same for a scope key's buckets, which have triggers of their own. */
    @Test
    void anUpdateOfScopeBucketsThatAlsoWritesTheTotalsGetsThemFromTheTriggers() {
        UUID entity = ownKeys.newEntity();
        db.update("""
                INSERT INTO risk_scope_hourly_agg (scope, owner_id, channel_code, direction_code, bucket_ts,
                                                   sum_amount, tx_count)
                SELECT 'entity', ?, '*', 'OUT', ?::timestamp + make_interval(hours => hour), 100, 1
                FROM generate_series(0, 3) AS hour
                """, entity, Timestamp.valueOf(START));
        List<Long> rewritesBefore = scopeRewrites(entity);

        db.update("""
                UPDATE risk_scope_hourly_agg
                SET sum_amount = sum_amount + 50, tx_count = tx_count + 1,
                    running_amount = 0, running_count = 0, rewrites = 0
                WHERE scope = 'entity' AND owner_id = ? AND bucket_ts IN (?, ?)
                """, entity, Timestamp.valueOf(START.plusHours(1)), Timestamp.valueOf(START.plusHours(2)));

        assertThat(entityScopeMismatches(entity)).isEmpty();
        List<Long> rewritesAfter = scopeRewrites(entity);
        assertThat(rewritesAdded(rewritesBefore, rewritesAfter)).containsExactly(2L, 2L, 2L, 2L);
    }

    private List<Long> scopeRewrites(UUID entity) {
        return db.queryForList(
                "SELECT rewrites FROM risk_scope_hourly_agg WHERE scope = 'entity' AND owner_id = ? ORDER BY bucket_ts",
                Long.class,
                entity);
    }

    // what each bucket's rewrites grew by, bucket by bucket in hour order
    private static List<Long> rewritesAdded(List<Long> before, List<Long> after) {
        return IntStream.range(0, after.size())
                .mapToObj(bucket -> after.get(bucket) - before.get(bucket))
                .toList();
    }

    private List<String> entityScopeMismatches(UUID entity) {
        return PrefixSums.mismatches(db, "risk_scope_hourly_agg WHERE scope = 'entity' AND owner_id = ?", entity);
    }

    private List<Long> rewrites(UUID entity) {
        return db.queryForList(
                "SELECT rewrites FROM risk_hourly_agg WHERE entity_id = ? ORDER BY bucket_ts", Long.class, entity);
    }

    /**
     * The batched decider adds to this hour's bucket where its usage read found the row. Should the
     * row have moved since (another writer updated it, although the decider holds the key's lock), the
     * write must fail, not add nothing.
     */
    @Test
    void aBucketThatMovedSinceItWasReadFailsTheWriteInsteadOfLosingTheAmount() {
        UUID entity = ownKeys.newEntity();
        BusinessKey key = new BusinessKey(entity, "CARD", Direction.OUT);
        Instant bucket = START.toInstant(ZoneOffset.UTC);
        addToBucket(entity, 0, 40);

        assertThatThrownBy(() -> transaction.executeWithoutResult(status -> {
                    db.queryForObject(
                            "SELECT decided_at FROM risk_begin_scoped_batch_decision(ARRAY[?]::uuid[], ARRAY['CARD'], ARRAY['OUT'], "
                                    + "'{}', '{}', '{}', '{}')",
                            OffsetDateTime.class,
                            entity);
                    Map<ScopeKey, LatestBucket> read = batched.usage()
                            .usageUpTo(List.of(ScopeKey.of(key)), bucket)
                            .latestBuckets();
                    db.update(
                            "UPDATE risk_hourly_agg SET tx_count = tx_count WHERE entity_id = ? AND bucket_ts = ?",
                            entity,
                            START);
                    RoundTrip trip = new RoundTrip(db);
                    buckets.addToBuckets(Map.of(ScopeKey.of(key), new Tally(10, 1)), bucket, read, trip);
                    trip.run();
                }))
                .isInstanceOf(JdbcUpdateAffectedIncorrectNumberOfRowsException.class);

        assertThat(db.queryForObject(
                        "SELECT sum_amount FROM risk_hourly_agg WHERE entity_id = ? AND bucket_ts = ?",
                        Long.class,
                        entity,
                        START))
                .isEqualTo(40);
    }

    /**
     * One statement that writes several buckets of a key (an operator's backfill), in any order, new
     * buckets and existing ones: the totals are the prefix sums. A BEFORE trigger that saw the rows of
     * its own statement (a VOLATILE function) would count a bucket written earlier in the same statement
     * twice in the later ones.
     */
    @Test
    void aStatementWritingManyBucketsOfAKeyKeepsThePrefixSums() {
        UUID entity = ownKeys.newEntity();
        addToBucket(entity, 2, 7);

        db.update("""
                INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
                SELECT ?, 'CARD', 'OUT', ?::timestamp + make_interval(hours => hour), 10, 1
                FROM generate_series(0, 5) AS hour
                WHERE hour <> 2
                ORDER BY hour DESC
                """, entity, Timestamp.valueOf(START));
        // an upsert through the view, which takes no ON CONFLICT
        db.update("""
                WITH added AS (
                    SELECT CAST(? AS uuid) AS entity_id, CAST(? AS timestamp) + make_interval(hours => hour) AS bucket_ts
                    FROM generate_series(1, 8) AS hour
                ), updated AS (
                    UPDATE risk_hourly_agg bucket
                    SET sum_amount = bucket.sum_amount + 5,
                        tx_count   = bucket.tx_count + 1
                    FROM added
                    WHERE (bucket.entity_id, bucket.channel_code, bucket.direction_code, bucket.bucket_ts)
                        = (added.entity_id, 'CARD', 'OUT', added.bucket_ts)
                    RETURNING bucket.bucket_ts
                )
                INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
                SELECT entity_id, 'CARD', 'OUT', bucket_ts, 5, 1
                FROM added
                WHERE bucket_ts NOT IN (SELECT bucket_ts FROM updated)
                """, entity, Timestamp.valueOf(START));

        assertThat(mismatches(entity)).isEmpty();
        assertThat(db.queryForObject(
                        "SELECT max(running_amount)::bigint FROM risk_hourly_agg WHERE entity_id = ?",
                        Long.class,
                        entity))
                .isEqualTo(7 + 5 * 10 + 8 * 5);
    }

    /**
     * A bulk load through the view: each row's trigger looks the key's chunks up, and takes the primary key
     * whatever the planner's estimates say (the write functions run with enable_seqscan off, V13). Planned
     * as a sequential scan, each row would read the whole growing table: that made a 200,000-row insert
     * through V1's triggers run for many minutes on a table whose statistics said it was empty. Here index
     * scans are made to look dear instead.
     */
    @Test
    void aBulkLoadThroughTheViewDoesNotReadTheTableOncePerRow() {
        long tableScans = transaction.execute(status -> {
            status.setRollbackOnly();
            db.execute("SET LOCAL random_page_cost = 1000000");
            db.execute("SET LOCAL cpu_index_tuple_cost = 1000000");
            long scansBefore = sequentialScans("risk_hourly_chunk");
            db.update("""
                    INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
                    SELECT key.entity_id, 'CARD', 'OUT', ?::timestamp + make_interval(hours => hour), 10, 1
                    FROM (SELECT gen_random_uuid() AS entity_id FROM generate_series(1, 200)) AS key,
                         generate_series(0, 9) AS hour
                    ORDER BY hour
                    """, Timestamp.valueOf(START));
            long scansOfTheLoad = sequentialScans("risk_hourly_chunk") - scansBefore;
            assertThat(db.queryForObject(
                            "SELECT count(*) FROM risk_hourly_chunk WHERE running_count = 10 AND running_amount = 100"
                                    + " AND first_ts = ?",
                            Long.class,
                            Timestamp.valueOf(START)))
                    .isEqualTo(200);
            return scansOfTheLoad;
        });

        assertThat(tableScans).isZero();
    }

    private long sequentialScans(String table) {
        return db.queryForObject("SELECT pg_stat_get_xact_numscans(?::regclass)", Long.class, table);
    }

    @Test
    void theDecidersStatementRefusesToRunOutsideATransaction() {
        BusinessKey key = ownKeys.newKey();

        assertThatThrownBy(() -> buckets.addToBuckets(
                        Map.of(ScopeKey.of(key), new Tally(1, 1)), Instant.now(), Map.of(), new RoundTrip(db)))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aKeyDoesNotSeeTheTotalsOfAnother() {
        UUID first = ownKeys.newEntity();
        UUID second = ownKeys.newEntity();
        addToBucket(first, 0, 500);
        addToBucket(second, 1, 7);
        Long running = db.queryForObject(
                "SELECT running_amount::bigint FROM risk_hourly_agg WHERE entity_id = ?", Long.class, second);
        assertThat(running).isEqualTo(7);
    }

    private List<String> mismatches(UUID entity) {
        return PrefixSums.keyMismatches(db, entity);
    }

    private void addToBucket(UUID entity, int hour, long amount) {
        BucketRows.add(db, new BusinessKey(entity, "CARD", Direction.OUT), START.plusHours(hour), amount);
    }
}
