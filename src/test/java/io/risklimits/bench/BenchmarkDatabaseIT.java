package io.risklimits.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.risklimits.support.TestInfrastructure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

class BenchmarkDatabaseIT {

    // SharedBuffersTouch's report: the buffers that held a page of its table, of those unused as it began
    private static final Pattern TOUCHED =
            Pattern.compile("([0-9,]+) of ([0-9,]+) unused buffers touched in [0-9.]+ s");

    private final BenchmarkDatabase database =
            new BenchmarkDatabase(TestInfrastructure.get().dataSource());
    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final BenchmarkKeys keys = BenchmarkKeys.random(1_000);

    @AfterEach
    void deleteTheKeysRows() {
        db.update("DELETE FROM risk_authorization_ledger WHERE entity_id = ANY (?::uuid[])", (Object) ids());
        for (String table : List.of("risk_hourly_chunk", "risk_scope_hourly_chunk")) {
            db.update(
                    "DELETE FROM " + table + " WHERE " + (table.equals("risk_hourly_chunk") ? "entity_id" : "owner_id")
                            + " = ANY (?::uuid[])",
                    (Object) ids());
        }
    }

    @Test
    void theWideKeySetsEntityHistoryLoadedBesideItsKeyBucketsIsTheOneAddedUpFromThem() {
        assertThat(database.loadWideHistory(keys)).isEqualTo(1_000L * Scenario.WIDE_BUCKETS_PER_KEY);
        assertThat(database.loadWideEntityHistory(keys)).isEqualTo(1_000L * Scenario.WIDE_BUCKETS_PER_KEY);
        List<String> generated = entityHistory();
        db.update("DELETE FROM risk_scope_hourly_chunk WHERE owner_id = ANY (?::uuid[])", (Object) ids());

        database.loadScopeHistory("entity", keys, keys.entityIds(), false);

        assertThat(generated).hasSize(1_000 * Scenario.WIDE_BUCKETS_PER_KEY).isEqualTo(entityHistory());
    }

    @Test
    void evictingTheWideHistoryDropsThePagesOfItsKeysBucketsAndOfItsEntitiesBucketsFromSharedBuffers() {
        db.execute("CREATE EXTENSION IF NOT EXISTS pg_buffercache");
        database.loadWideHistory(keys);
        database.loadWideEntityHistory(keys);
        List<Long> keyPages = pagesOfTheKeys("risk_hourly_chunk", "entity_id");
        List<Long> entityPages = pagesOfTheKeys("risk_scope_hourly_chunk", "owner_id");
        assertThat(inSharedBuffers("risk_hourly_chunk", keyPages)).isPositive();
        assertThat(inSharedBuffers("risk_scope_hourly_chunk", entityPages)).isPositive();

        assertThat(database.evictWideHistory()).isPositive();

        assertThat(inSharedBuffers("risk_hourly_chunk", keyPages)).isZero();
        assertThat(inSharedBuffers("risk_scope_hourly_chunk", entityPages)).isZero();
    }

    @Test
    void touchingTheUnusedSharedBuffersUsesEveryOneAndLeavesNoTableTablespaceOrDirectoryBehind() throws Exception {
        db.execute("CREATE EXTENSION IF NOT EXISTS pg_buffercache");
        long unused = unusedBuffers();
        assertThat(unused).isPositive();

        String touched = new SharedBuffersTouch(TestInfrastructure.get().dataSource()).touchUnusedBuffers();

        Matcher figures = TOUCHED.matcher(touched);
        assertThat(figures.matches()).as(touched).isTrue();
        long held = Long.parseLong(figures.group(1).replace(",", ""));
        // the buffers unused as the touch began, as many as its table's pages: more than just before when
        // other work on the server freed some meanwhile (as a vacuum does that truncates a table)
        long unusedAtTouch = Long.parseLong(figures.group(2).replace(",", ""));
        assertThat(unusedAtTouch).isGreaterThanOrEqualTo(unused - 100);
        assertThat(held)
                .as("buffers that held a page of the table")
                .isBetween(unusedAtTouch - 100, unusedAtTouch + 100);
        // dropped, its buffers are unused again: back on the server's free list
        assertThat(unusedBuffers()).isGreaterThanOrEqualTo(unused - 100);
        assertThat(db.queryForObject(
                        "SELECT count(*) FROM pg_tablespace WHERE spcname = 'risk_bench_touch'", Long.class))
                .isZero();
        assertThat(db.queryForObject("SELECT count(*) FROM pg_class WHERE relname = 'risk_bench_touch'", Long.class))
                .isZero();
        Path inMemory = Path.of("/dev/shm");
        if (Files.isDirectory(inMemory)) {
            try (Stream<Path> left = Files.list(inMemory)) {
                assertThat(left.filter(path -> path.getFileName().toString().startsWith("risk-bench-touch-")))
                        .isEmpty();
            }
        }
    }

    private long unusedBuffers() {
        return db.queryForObject("SELECT count(*) FROM pg_buffercache WHERE relfilenode IS NULL", Long.class);
    }

    @Test
    void theOpenHoldsOfTheDaysBeforeAreNoneDueInAWeekAndOutliveTheResetOfTheRunsDecisions() {
        assertThat(database.writeOpenHolds(keys, 3)).isEqualTo(3_000L);

        database.resetRunDecisions();

        assertThat(db.queryForList("""
                        SELECT count(DISTINCT (entity_id, direction_code)) AS keys, count(*) AS holds,
                               count(*) FILTER (WHERE status = 'OPEN' AND expires_at > now() + interval '6 days')
                                   AS open_past_a_run,
                               count(*) FILTER (WHERE bucket_ts < date_trunc('hour', now() AT TIME ZONE 'UTC')
                                                  AND count_hour = bucket_ts
                                                  AND parts->0->>'kind' = 'AUTHORIZATION'
                                                  AND CAST(parts->0->>'hour' AS timestamptz) = bucket_ts AT TIME ZONE 'UTC')
                                   AS counted_in_an_earlier_hour
                        FROM risk_authorization_ledger WHERE entity_id = ANY (?::uuid[])
                        """, (Object) ids()))
                .containsExactly(Map.of(
                        "keys",
                        1_000L,
                        "holds",
                        3_000L,
                        "open_past_a_run",
                        3_000L,
                        "counted_in_an_earlier_hour",
                        3_000L));
    }

    @Test
    void aKeySetsEntityHistoryLoadedBesideItsKeyBucketsIsTheOneAddedUpFromThem() {
        // two days: the keys take two statements of the load
        assertThat(database.loadHistory(keys, 2)).isEqualTo(1_000L * 48);
        assertThat(database.loadEntityHistory(keys, 2)).isEqualTo(1_000L * 48);
        List<String> generated = entityHistory();
        db.update("DELETE FROM risk_scope_hourly_chunk WHERE owner_id = ANY (?::uuid[])", (Object) ids());

        database.loadScopeHistory("entity", keys, keys.entityIds(), false);

        assertThat(generated).hasSize(1_000 * 48).isEqualTo(entityHistory());
    }

    @Test
    void aBulkLoadRunsWithoutTheArchiveIndexesAndAutovacuumAndLeavesBothAsTheyWere() {
        BucketTablesBulkLoad bulkLoad =
                new BucketTablesBulkLoad(TestInfrastructure.get().dataSource());
        List<BucketTablesBulkLoad.Index> before = bulkLoad.secondaryIndexes();
        // one table with autovacuum set as an operator may have set it, one as the migrations leave it
        db.execute("ALTER TABLE risk_scope_hourly_chunk SET (autovacuum_enabled = true)");
        List<String> keyParameters = bulkLoad.storageParameters("risk_hourly_chunk");
        List<String> scopeParameters = bulkLoad.storageParameters("risk_scope_hourly_chunk");
        assertThat(keyParameters).noneMatch(parameter -> parameter.startsWith("autovacuum_enabled"));
        assertThat(before)
                .extracting(BucketTablesBulkLoad.Index::name)
                .contains("risk_hourly_chunk_archive_idx", "risk_scope_hourly_chunk_archive_idx");

        long rows = bulkLoad.run(() -> {
            assertThat(bulkLoad.secondaryIndexes()).isEmpty();
            BucketTablesBulkLoad.TABLES.forEach(
                    table -> assertThat(bulkLoad.storageParameters(table)).contains("autovacuum_enabled=false"));
            return database.loadHistory(keys, 2) + database.loadEntityHistory(keys, 2);
        });

        assertThat(rows).isEqualTo(2_000L * 48);
        assertThat(bulkLoad.secondaryIndexes()).isEqualTo(before);
        assertThat(bulkLoad.storageParameters("risk_hourly_chunk")).isEqualTo(keyParameters);
        assertThat(bulkLoad.storageParameters("risk_scope_hourly_chunk")).isEqualTo(scopeParameters);
        db.execute("ALTER TABLE risk_scope_hourly_chunk RESET (autovacuum_enabled)");
        assertThat(db.queryForObject("""
                        SELECT count(*) FROM pg_index
                        WHERE indexrelid IN (CAST('risk_hourly_chunk_archive_idx' AS regclass),
                                             CAST('risk_scope_hourly_chunk_archive_idx' AS regclass))
                          AND indisvalid AND indisready
                        """, Long.class)).isEqualTo(2L);
    }

    @Test
    void aBulkLoadThatFailsLeavesTheIndexesAndAutovacuumAsTheyWere() {
        BucketTablesBulkLoad bulkLoad =
                new BucketTablesBulkLoad(TestInfrastructure.get().dataSource());
        List<BucketTablesBulkLoad.Index> before = bulkLoad.secondaryIndexes();
        List<String> keyParameters = bulkLoad.storageParameters("risk_hourly_chunk");

        assertThatThrownBy(() -> bulkLoad.run(() -> {
                    throw new IllegalStateException("the load failed");
                }))
                .hasMessage("the load failed");

        assertThat(bulkLoad.secondaryIndexes()).isEqualTo(before);
        assertThat(bulkLoad.storageParameters("risk_hourly_chunk")).isEqualTo(keyParameters);
    }

    // the heap pages holding the key set's rows of a bucket table (reading them brings them into shared buffers)
    private List<Long> pagesOfTheKeys(String table, String ownerColumn) {
        return db.queryForList(
                "SELECT DISTINCT CAST((ctid::text::point)[0] AS bigint) FROM " + table + " WHERE " + ownerColumn
                        + " = ANY (?::uuid[])",
                Long.class,
                (Object) ids());
    }

    // how many of these heap pages of the table are in shared buffers (without reading them)
    private long inSharedBuffers(String table, List<Long> pages) {
        return db.queryForObject("""
                SELECT count(*)
                FROM pg_buffercache
                WHERE relfilenode = pg_relation_filenode(CAST(? AS regclass)) AND relforknumber = 0
                  AND reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
                  AND relblocknumber = ANY (?::bigint[])
                """, Long.class, table, pages.toArray(Long[]::new));
    }

    private String[] ids() {
        return keys.entityIds().stream().map(UUID::toString).toArray(String[]::new);
    }

    private List<String> entityHistory() {
        return db.queryForList("""
                SELECT concat_ws(' ', scope, owner_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count,
                                 running_amount, running_count, rewrites)
                FROM risk_scope_hourly_agg
                WHERE owner_id = ANY (?::uuid[])
                ORDER BY owner_id, channel_code, direction_code, bucket_ts
                """, String.class, (Object) ids());
    }
}
