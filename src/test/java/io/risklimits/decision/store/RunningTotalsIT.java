package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.Scope;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Tally;
import io.risklimits.decision.WindowCalendar;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.TestInfrastructure;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
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
    private final RunningUsageRepository usage = new RunningUsageRepository(
            new JdbcTemplate(dataSource),
            WindowCalendar.UTC,
            new WindowStartsCache(0),
            new DecisionStoreMetrics(new SimpleMeterRegistry()));
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
                transaction.executeWithoutResult(status -> addAsTheBatchedDecider(entity, bucket, amount));
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
     * the statement by its own change and its earlier buckets' changes, and counts a rewrite for each.
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
        assertThat(rewritesAdded(rewritesBefore, rewritesAfter)).containsExactly(0L, 1L, 2L, 2L);
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
        assertThat(rewritesAdded(rewritesBefore, rewritesAfter)).containsExactly(0L, 1L, 2L, 2L);
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
        return prefixSumMismatches("risk_scope_hourly_agg WHERE scope = 'entity' AND owner_id = ?", entity);
    }

    private List<Long> rewrites(UUID entity) {
        return db.queryForList(
                "SELECT rewrites FROM risk_hourly_agg WHERE entity_id = ? ORDER BY bucket_ts", Long.class, entity);
    }

    /**
     * Adding to a key's current bucket changes no indexed value (the primary key carries the totals
     * before the bucket, which do not move when the bucket grows), so PostgreSQL updates the row on its
     * heap page (HOT) and writes no index entries. With the bucket's own totals in the index no update
     * would be HOT (docs/adr/0002-bucket-key-and-in-place-updates.md).
     */
    @Test
    void addingToTheCurrentBucketWritesNoIndexEntries() {
        UUID entity = ownKeys.newEntity();
        Instant bucket = START.toInstant(ZoneOffset.UTC);
        addToBucket(entity, -1, 40);

        List<String> updates = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            updates.add(transaction.execute(status -> {
                addAsTheBatchedDecider(entity, bucket, 10);
                return db.queryForObject("""
                        SELECT pg_stat_get_xact_tuples_updated('risk_hourly_agg'::regclass) || ' updated, '
                               || pg_stat_get_xact_tuples_hot_updated('risk_hourly_agg'::regclass) || ' HOT'
                        """, String.class);
            }));
        }

        // the first transaction inserts the bucket; the four after it add to it
        assertThat(updates)
                .containsExactly(
                        "0 updated, 0 HOT",
                        "1 updated, 1 HOT",
                        "1 updated, 1 HOT",
                        "1 updated, 1 HOT",
                        "1 updated, 1 HOT");
        assertThat(mismatches(entity)).isEmpty();
    }

    /**
     * A batch adds to many keys' buckets of this hour, and a key's first event of the hour inserts its
     * bucket next to the other keys' new buckets, so a page of this hour's buckets can see every one of its
     * rows updated by one transaction. Each update stays on the page (HOT) only if the page has room for a
     * new version of each of its rows besides the old ones, which that transaction's commit has yet to free:
     * the bucket tables leave half of every page free (migration V11). Filled to 85 %, as before, a page
     * took about one new version for every six of its rows, and the others moved to other pages with new
     * index entries.
     */
    @Test
    void aBatchAddingToEveryBucketOfThisHourWritesNoIndexEntries() {
        List<BusinessKey> keys = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            keys.add(new BusinessKey(ownKeys.newEntity(), "CARD", Direction.OUT));
        }
        Instant bucket = START.plusHours(1).toInstant(ZoneOffset.UTC);
        transaction.executeWithoutResult(status -> addAsTheBatchedDecider(keys, bucket, 40));

        String updates = transaction.execute(status -> {
            addAsTheBatchedDecider(keys, bucket, 10);
            return db.queryForObject("""
                    SELECT pg_stat_get_xact_tuples_updated('risk_hourly_agg'::regclass) || ' updated, '
                           || pg_stat_get_xact_tuples_hot_updated('risk_hourly_agg'::regclass) || ' HOT; '
                           || pg_stat_get_xact_tuples_updated('risk_scope_hourly_agg'::regclass) || ' updated, '
                           || pg_stat_get_xact_tuples_hot_updated('risk_scope_hourly_agg'::regclass) || ' HOT'
                    """, String.class);
        });

        // every key's bucket and its entity's
        assertThat(updates).isEqualTo("120 updated, 120 HOT; 120 updated, 120 HOT");
    }

    /**
     * PostgreSQL locks every row an UPDATE changes for a BEFORE UPDATE row trigger (a WAL record of its
     * own per row) before it evaluates the trigger's WHEN clause, so such a trigger would cost each of the
     * decider's updates that lock although the triggers stand aside for its statements: a changed bucket is
     * moved by the AFTER trigger instead (migration V12). The WAL of the batch shows its updates and no
     * row locks (pg_walinspect, PostgreSQL 16 and later).
     */
    @Test
    void aBatchAddingToThisHoursBucketsLocksNoRowsForTheTriggers() {
        assumeTrue(
                db.queryForObject(
                        "SELECT count(*) > 0 FROM pg_available_extensions WHERE name = 'pg_walinspect'", Boolean.class),
                "pg_walinspect is not available on this server");
        db.execute("CREATE EXTENSION IF NOT EXISTS pg_walinspect");
        List<BusinessKey> keys = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            keys.add(new BusinessKey(ownKeys.newEntity(), "CARD", Direction.OUT));
        }
        Instant bucket = START.plusHours(2).toInstant(ZoneOffset.UTC);
        transaction.executeWithoutResult(status -> addAsTheBatchedDecider(keys, bucket, 40));

        String before = db.queryForObject("SELECT pg_current_wal_insert_lsn()::text", String.class);
        transaction.executeWithoutResult(status -> {
            // the embedded server commits asynchronously, and WAL is read only as far as it was flushed
            db.execute("SET LOCAL synchronous_commit = on");
            addAsTheBatchedDecider(keys, bucket, 10);
        });
        String after = db.queryForObject("SELECT pg_current_wal_flush_lsn()::text", String.class);
        String records = db.queryForObject("""
                SELECT count(*) FILTER (WHERE record_type LIKE 'HOT_UPDATE%') || ' updated in place, '
                       || count(*) FILTER (WHERE record_type LIKE 'LOCK%') || ' locked'
                FROM pg_get_wal_block_info(?::pg_lsn, ?::pg_lsn, false)
                WHERE resource_manager = 'Heap'
                  AND relfilenode IN (pg_relation_filenode('risk_hourly_agg'),
                                      pg_relation_filenode('risk_scope_hourly_agg'))
                """, String.class, before, after);

        // every key's bucket and its entity's
        assertThat(records).isEqualTo("100 updated in place, 0 locked");
        assertThat(mismatches(keys.get(0).entityId())).isEmpty();
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
                    Map<ScopeKey, LatestBucket> read =
                            usage.usageUpTo(List.of(ScopeKey.of(key)), bucket).latestBuckets();
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
        db.update("""
                INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
                SELECT ?, 'CARD', 'OUT', ?::timestamp + make_interval(hours => hour), 5, 1
                FROM generate_series(1, 8) AS hour
                ON CONFLICT (entity_id, channel_code, direction_code, bucket_ts)
                DO UPDATE SET sum_amount = risk_hourly_agg.sum_amount + EXCLUDED.sum_amount,
                              tx_count   = risk_hourly_agg.tx_count + EXCLUDED.tx_count
                """, entity, Timestamp.valueOf(START));

        assertThat(mismatches(entity)).isEmpty();
        assertThat(db.queryForObject(
                        "SELECT max(running_amount)::bigint FROM risk_hourly_agg WHERE entity_id = ?",
                        Long.class,
                        entity))
                .isEqualTo(7 + 5 * 10 + 8 * 5);
    }

    /**
     * A bulk load through the triggers into a table whose statistics say it is empty: the triggers'
     * lookups are planned then, and kept for the whole statement. Unless they take the primary key
     * (their functions run with enable_seqscan off) each row reads the growing table; that made a
     * 200,000-row insert run for many minutes.
     * The table is a copy of risk_hourly_agg with the same triggers, in a schema of its own, dropped
     * with the transaction.
     */
    @Test
    void aBulkLoadIntoAnEmptyTableDoesNotReadItOncePerRow() {
        String schema = "bulk_load_" + UUID.randomUUID().toString().replace("-", "");
        String table = schema + ".risk_hourly_agg";
        long tableScans = transaction.execute(status -> {
            status.setRollbackOnly();
            db.execute("CREATE SCHEMA " + schema);
            db.execute("CREATE TABLE " + table + " (LIKE public.risk_hourly_agg INCLUDING ALL)");
            db.execute("CREATE TRIGGER running_totals BEFORE INSERT ON " + table
                    + " FOR EACH ROW EXECUTE FUNCTION public.risk_hourly_agg_set_running_totals()");
            db.execute("CREATE TRIGGER running_totals_forward AFTER INSERT OR UPDATE OF sum_amount, tx_count ON "
                    + table + " FOR EACH ROW EXECUTE FUNCTION public.risk_hourly_agg_carry_forward()");
            db.execute("ANALYZE " + table);
            // the triggers' unqualified risk_hourly_agg is now the copy
            db.execute("SET LOCAL search_path = " + schema + ", public");
            long scansBefore = sequentialScans(table);
            db.update("""
                    INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
                    SELECT key.entity_id, 'CARD', 'OUT', ?::timestamp + make_interval(hours => hour), 10, 1
                    FROM (SELECT gen_random_uuid() AS entity_id FROM generate_series(1, 200)) AS key,
                         generate_series(0, 9) AS hour
                    ORDER BY hour
                    """, Timestamp.valueOf(START));
            long scansOfTheLoad = sequentialScans(table) - scansBefore;
            assertThat(db.queryForObject(
                            "SELECT count(*) FROM risk_hourly_agg WHERE running_count = 10 AND running_amount = 100",
                            Long.class))
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

    /**
     * Inside a transaction, as the batched decider does: begin (the triggers stand aside), read the
     * key's latest bucket, add one event's amount with the statement-written running totals.
     */
    private void addAsTheBatchedDecider(UUID entity, Instant bucket, long amount) {
        addAsTheBatchedDecider(List.of(ScopeKey.of(new BusinessKey(entity, "CARD", Direction.OUT))), bucket, amount);
    }

    // adds the amount at each key and at its entity, in one batch
    private void addAsTheBatchedDecider(List<BusinessKey> keys, Instant bucket, long amount) {
        addAsTheBatchedDecider(
                keys.stream()
                        .flatMap(key -> ScopeKey.countedAt(key, null).stream())
                        .toList(),
                bucket,
                amount);
    }

    // adds the amount at each of these key and entity scope keys, in one batch that locks them first
    private void addAsTheBatchedDecider(Collection<ScopeKey> scopeKeys, Instant bucket, long amount) {
        List<ScopeKey> keys =
                scopeKeys.stream().filter(key -> key.scope() == Scope.KEY).toList();
        List<ScopeKey> entities =
                scopeKeys.stream().filter(key -> key.scope() == Scope.ENTITY).toList();
        db.queryForObject(
                "SELECT decided_at FROM risk_begin_scoped_batch_decision(?::uuid[], ?::text[], ?::text[], "
                        + "?::text[], ?::uuid[], ?::text[], ?::text[])",
                OffsetDateTime.class,
                keys.stream().map(ScopeKey::owner).toArray(UUID[]::new),
                keys.stream().map(ScopeKey::channel).toArray(String[]::new),
                keys.stream().map(key -> key.direction().name()).toArray(String[]::new),
                entities.stream().map(key -> key.scope().label()).toArray(String[]::new),
                entities.stream().map(ScopeKey::owner).toArray(UUID[]::new),
                entities.stream().map(ScopeKey::channel).toArray(String[]::new),
                entities.stream().map(key -> key.direction().name()).toArray(String[]::new));
        Map<ScopeKey, Tally> added = new HashMap<>();
        scopeKeys.forEach(scopeKey -> added.put(scopeKey, new Tally(amount, 1)));
        RoundTrip trip = new RoundTrip(db);
        buckets.addToBuckets(
                added, bucket, usage.usageUpTo(List.copyOf(scopeKeys), bucket).latestBuckets(), trip);
        trip.run();
    }

    private List<String> mismatches(UUID entity) {
        return prefixSumMismatches(
                "risk_hourly_agg WHERE entity_id = ? AND channel_code = 'CARD' AND direction_code = 'OUT'", entity);
    }

    /**
     * The hours of one scope key's buckets whose running totals are not the prefix sums of its amounts and
     * counts.
     *
     * @param bucketsOfTheKey the bucket table and the condition that picks the key's rows
     */
    private List<String> prefixSumMismatches(String bucketsOfTheKey, UUID owner) {
        return db.queryForList("""
                SELECT bucket_ts::text
                FROM (SELECT bucket_ts, running_amount, running_count,
                             sum(sum_amount) OVER (ORDER BY bucket_ts) AS expected_amount,
                             sum(tx_count)   OVER (ORDER BY bucket_ts) AS expected_count
                      FROM %s) AS buckets
                WHERE running_amount <> expected_amount OR running_count <> expected_count
                """.formatted(bucketsOfTheKey), String.class, owner);
    }

    private void addToBucket(UUID entity, int hour, long amount) {
        BucketRows.add(db, new BusinessKey(entity, "CARD", Direction.OUT), START.plusHours(hour), amount);
    }
}
