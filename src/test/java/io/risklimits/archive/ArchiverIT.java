package io.risklimits.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.risklimits.support.ArchiveWindows;
import io.risklimits.support.DecisionSchema;
import io.risklimits.support.HourBoundary;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The archiver end to end: commands on Kafka, deletes in PostgreSQL, answers on Kafka. The cursor,
 * the lease and old rows are global, so every test sets the cursor itself, 12 hours before the
 * cutoff, and only its own rows live in [cursor, cutoff).
 */
class ArchiverIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final RunningService.Topics TOPICS = RunningService.Topics.unique();
    private static RunningService service;

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final String channel =
            "ARC_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();
    private final UUID entity = UUID.randomUUID();
    private LocalDateTime cutoff;

    @BeforeAll
    static void startService() {
        service =
                RunningService.start(TOPICS, Map.of("risk.roles", "archiver", "risk.archiver.statement-timeout", "2s"));
    }

    @AfterAll
    static void stopService() {
        service.close();
    }

    @BeforeEach
    void startTwelveHoursBeforeTheCutoff() {
        HourBoundary.awaitClearOfTheNextHour(Duration.ofSeconds(60));
        cutoff = ArchiveWindows.cutoff(db);
        db.update("DELETE FROM risk_archive_lease");
        // whatever earlier tests left in the window is not this test's business
        ArchiveWindows.clear(db, cutoff.minusHours(12), cutoff);
        setCursor(cutoff.minusHours(12));
    }

    @Test
    void rowsBeforeTheCutoffGoFromBothTablesAndTheCursorReachesIt() {
        insertRowsAt(-11, -5, -1, 0, 5);
        insertKeylessRowAt(-2);

        JsonNode result = run("\"window_minutes\": 180");

        assertThat(result.get("status").stringValue()).isEqualTo("COMPLETED");
        assertThat(result.get("windows").intValue()).isEqualTo(4);
        assertThat(result.get("deleted_agg_rows").longValue()).isEqualTo(3);
        assertThat(result.get("deleted_log_rows").longValue()).isEqualTo(4);
        assertThat(result.get("cursor_from").stringValue()).isEqualTo(utc(cutoff.minusHours(12)));
        assertThat(result.get("cursor_to").stringValue()).isEqualTo(utc(cutoff));
        assertThat(result.get("cutoff").stringValue()).isEqualTo(utc(cutoff));
        assertThat(result.get("window_minutes_used").intValue()).isEqualTo(180);
        assertThat(storedCursor()).isEqualTo(cutoff);
        assertThat(aggHours()).containsExactly(0L, 5L);
        assertThat(logHours()).containsExactly(0L, 5L);
        assertThat(keylessRows()).isZero();
    }

    /** A hold's ledger goes with its authorization's audit row; a dry run leaves it. */
    @Test
    void theLedgersOfTheAuthorizationsPastTheCutoffGoWithThem() {
        insertLedgersAt(-11, -1, 0, 5);

        run("\"dry_run\": true");
        assertThat(hoursOf("risk_authorization_ledger")).containsExactly(-11L, -1L, 0L, 5L);
        run("\"window_minutes\": 180");

        assertThat(hoursOf("risk_authorization_ledger")).containsExactly(0L, 5L);
    }

    @Test
    void aDryRunCountsButDeletesNothingAndMovesNoCursor() {
        insertRowsAt(-11, -1, 3);

        JsonNode result = run("\"dry_run\": true");

        assertThat(result.get("status").stringValue()).isEqualTo("COMPLETED");
        assertThat(result.get("dry_run").booleanValue()).isTrue();
        assertThat(result.get("deleted_agg_rows").longValue()).isEqualTo(2);
        assertThat(result.get("deleted_log_rows").longValue()).isEqualTo(2);
        assertThat(result.get("cursor_to").stringValue()).isEqualTo(utc(cutoff));
        assertThat(storedCursor()).isEqualTo(cutoff.minusHours(12));
        assertThat(aggHours()).containsExactly(-11L, -1L, 3L);
    }

    /** cursor_to is the cursor when the run ended: none was stored, and nothing moved it. */
    @Test
    void withoutACursorAndNothingPastRetentionTheResultReportsNoCursor() {
        db.update("DELETE FROM risk_archive_cursor");
        ArchiveWindows.clearBefore(db, cutoff);
        insertRowsAt(3);

        JsonNode result = run("\"window_minutes\": 180");

        assertThat(result.get("status").stringValue()).isEqualTo("COMPLETED");
        assertThat(result.get("windows").intValue()).isZero();
        assertThat(result.get("cursor_from").isNull()).as(result.toString()).isTrue();
        assertThat(result.get("cursor_to").isNull()).as(result.toString()).isTrue();
        assertThat(db.queryForObject("SELECT count(*) FROM risk_archive_cursor", Integer.class))
                .isZero();
        assertThat(aggHours()).containsExactly(3L);
    }

    /**
     * A chunk that holds buckets on both sides of the cutoff (V13) loses the older ones and keeps the
     * running totals of the later ones, from which the windows start: its totals before its first bucket
     * grow by what it lost.
     */
    @Test
    void aChunkAcrossTheCutoffKeepsTheTotalsOfItsLaterBuckets() {
        insertRowsAt(-11, -1, 3, 5);
        List<String> laterBefore = totalsFromTheCutoff();

        JsonNode result = run("\"window_minutes\": 180");

        assertThat(result.get("status").stringValue()).isEqualTo("COMPLETED");
        assertThat(aggHours()).containsExactly(3L, 5L);
        assertThat(totalsFromTheCutoff()).isEqualTo(laterBefore).hasSize(2);
    }

    @Test
    void scopeBucketsBeforeTheCutoffGoWithTheirWindowAndCountAsAggRows() {
        insertRowsAt(-11, -1, 3);
        insertScopeRowsAt(-11, -5, -1, 0, 3);

        JsonNode result = run("\"window_minutes\": 180");

        assertThat(result.get("status").stringValue()).isEqualTo("COMPLETED");
        assertThat(result.get("deleted_agg_rows").longValue())
                .as("2 key buckets and 3 scope buckets per scope before the cutoff")
                .isEqualTo(2 + 3 * 3);
        assertThat(result.get("deleted_log_rows").longValue()).isEqualTo(2);
        assertThat(scopeHours()).containsExactly(0L, 0L, 0L, 3L, 3L, 3L);
        assertThat(aggHours()).containsExactly(3L);
        assertThat(storedCursor()).isEqualTo(cutoff);
    }

    @Test
    void aDryRunCountsTheScopeBucketsButDeletesNone() {
        insertScopeRowsAt(-11, -1, 3);

        JsonNode result = run("\"dry_run\": true");

        assertThat(result.get("status").stringValue()).isEqualTo("COMPLETED");
        assertThat(result.get("deleted_agg_rows").longValue()).isEqualTo(2 * 3);
        assertThat(scopeHours()).containsExactly(-11L, -11L, -11L, -1L, -1L, -1L, 3L, 3L, 3L);
        assertThat(storedCursor()).isEqualTo(cutoff.minusHours(12));
    }

    /** The cursor moves past a window only once its scope buckets are gone too. */
    @Test
    void aScopeBucketDeleteOverTheStatementTimeoutKeepsTheCursorBeforeItsWindow() throws Exception {
        insertRowsAt(-11, -1);
        insertScopeRowsAt(-11, -1);
        try (Connection blocker = TestInfrastructure.get().dataSource().getConnection();
                Statement statement = blocker.createStatement()) {
            blocker.setAutoCommit(false);
            // the entity's chunk of hours -11 and -1 (V13)
            statement.execute("SELECT 1 FROM risk_scope_hourly_chunk WHERE owner_id = '" + entity
                    + "' AND scope = 'entity' FOR UPDATE");

            JsonNode result = run("\"window_minutes\": 180");

            assertThat(result.get("status").stringValue()).isEqualTo("FAILED");
            assertThat(storedCursor()).isEqualTo(cutoff.minusHours(11));
            // the entity's buckets are held; the other scope keys' buckets of their hours may be gone
            assertThat(scopeHours()).contains(-11L, -1L);
            blocker.rollback();
        }
        assertThat(run("").get("status").stringValue()).isEqualTo("COMPLETED");
        assertThat(scopeHours()).isEmpty();
    }

    /**
     * A scope bucket's hour may hold the usage of an original that a reversal can still find in another
     * slice's audit log: it goes only after the audit rows of its window are gone in every slice.
     */
    @Test
    void aScopeBucketStaysWhileAnAuditRowOfItsHourCannotBeDeleted() throws Exception {
        UUID owner = entityWhoseScopeBucketIsInAnotherSliceThanItsKey();
        LocalDateTime hour = cutoff.minusHours(1);
        UUID original = UUID.randomUUID();
        db.update("""
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, decided_at)
                VALUES (?, ?, 'OUT', ?, ?, 'APPROVED', 100, 'USD', clock_timestamp())
                """, owner, channel, original, hour);
        db.update("""
                INSERT INTO risk_scope_hourly_agg (scope, owner_id, channel_code, direction_code, bucket_ts,
                                                   sum_amount, tx_count)
                VALUES ('entity', ?, '*', 'OUT', ?, 100, 1)
                """, owner, hour);
        try (Connection reversal = TestInfrastructure.get().dataSource().getConnection();
                Statement statement = reversal.createStatement()) {
            reversal.setAutoCommit(false);
            // a reversal that found its original holds its audit row until it has released at every scope
            statement.execute("SELECT 1 FROM risk_request_log WHERE dedupe_id = '" + original + "' FOR UPDATE");

            JsonNode result = run("\"window_minutes\": 180");

            assertThat(result.get("status").stringValue()).isEqualTo("FAILED");
            assertThat(db.queryForObject(
                            "SELECT count(*) FROM risk_scope_hourly_agg WHERE owner_id = ?", Long.class, owner))
                    .as("the entity's bucket of the hour whose audit row is held")
                    .isEqualTo(1);
            reversal.rollback();
        }
        assertThat(run("").get("status").stringValue()).isEqualTo("COMPLETED");
        assertThat(db.queryForObject(
                        "SELECT count(*) FROM risk_scope_hourly_agg WHERE owner_id = ?", Long.class, owner))
                .isZero();
    }

    @Test
    void aFirstRunStartsAtTheOldestScopeBucket() {
        db.update("DELETE FROM risk_archive_cursor");
        ArchiveWindows.clearBefore(db, cutoff);
        insertScopeRowsAt(-5);

        JsonNode result = run("\"window_minutes\": 180");

        assertThat(result.get("status").stringValue()).isEqualTo("COMPLETED");
        assertThat(result.get("cursor_from").isNull()).as(result.toString()).isTrue();
        assertThat(result.get("windows").intValue()).isEqualTo(2);
        assertThat(result.get("deleted_agg_rows").longValue()).isEqualTo(3);
        assertThat(scopeHours()).isEmpty();
    }

    @Test
    void maxWindowsStopsEarlyAsPartialAndTheNextCommandFinishes() {
        insertRowsAt(-11, -4);

        JsonNode partial = run("\"window_minutes\": 180, \"max_windows\": 2");

        assertThat(partial.get("status").stringValue()).isEqualTo("PARTIAL");
        assertThat(partial.get("windows").intValue()).isEqualTo(2);
        assertThat(storedCursor()).isEqualTo(cutoff.minusHours(6));
        assertThat(aggHours()).containsExactly(-4L);

        JsonNode rest = run("\"window_minutes\": 180");

        assertThat(rest.get("status").stringValue()).isEqualTo("COMPLETED");
        assertThat(rest.get("windows").intValue()).isEqualTo(2);
        assertThat(aggHours()).isEmpty();
    }

    @Test
    void aCommandIdAlreadyHandledIsAnsweredDuplicateAndDoesNothing() {
        UUID commandId = UUID.randomUUID();
        assertThat(run(commandId, "").get("status").stringValue()).isEqualTo("COMPLETED");
        setCursor(cutoff.minusHours(12));
        insertRowsAt(-3);

        JsonNode again = run(commandId, "");

        assertThat(again.get("status").stringValue()).isEqualTo("DUPLICATE");
        assertThat(aggHours()).containsExactly(-3L);
    }

    @Test
    void badCommandsAreAnsweredInvalidAndTheNextGoodOneStillRuns() {
        List<String> bad = List.of(
                "not json",
                "{\"window_minutes\": 60}",
                "{\"command_id\": \"" + UUID.randomUUID() + "\", \"window_minutes\": 0}",
                "{\"command_id\": \"" + UUID.randomUUID() + "\", \"dry_run\": \"yes\"}");
        try (KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            bad.forEach(value -> TestKafka.send(
                    producer, TOPICS.archiveCommands(), null, null, value.getBytes(StandardCharsets.UTF_8)));
        }
        insertRowsAt(-2);

        JsonNode good = run("");

        assertThat(good.get("status").stringValue()).isEqualTo("COMPLETED");
        List<JsonNode> invalid = results().stream()
                .filter(result -> result.get("status").stringValue().equals("INVALID"))
                .toList();
        assertThat(invalid).hasSizeGreaterThanOrEqualTo(bad.size());
        assertThat(invalid)
                .anySatisfy(
                        result -> assertThat(result.get("command_id").isNull()).isTrue());
        assertThat(invalid)
                .allSatisfy(
                        result -> assertThat(result.get("error").stringValue()).isNotBlank());
    }

    @Test
    void whileAnotherRunHoldsTheLeaseTheAnswerIsBusyAndNothingIsDeleted() {
        insertRowsAt(-2);
        db.update(
                "INSERT INTO risk_archive_lease (holder, expires_at) VALUES (?, clock_timestamp() + interval '1 hour')",
                UUID.randomUUID());

        assertThat(run("").get("status").stringValue()).isEqualTo("BUSY");
        assertThat(aggHours()).containsExactly(-2L);

        db.update("UPDATE risk_archive_lease SET expires_at = clock_timestamp() - interval '1 second'");
        assertThat(run("").get("status").stringValue()).isEqualTo("COMPLETED");
        assertThat(aggHours()).isEmpty();
    }

    @Test
    void aRunThatCrashedMidWindowIsFinishedWhenItsCommandComesAgain() {
        UUID commandId = UUID.randomUUID();
        insertRowsAt(-11, -10, -2);
        // a crash after some workers deleted their part of the first window: cursor not moved
        db.update("INSERT INTO risk_archive_command (command_id, status) VALUES (?, 'RUNNING')", commandId);
        db.update("DELETE FROM risk_hourly_agg WHERE entity_id = ? AND bucket_ts = ?", entity, cutoff.minusHours(11));

        JsonNode result = run(commandId, "");

        assertThat(result.get("status").stringValue()).isEqualTo("COMPLETED");
        assertThat(result.get("deleted_agg_rows").longValue()).isEqualTo(2);
        assertThat(result.get("deleted_log_rows").longValue()).isEqualTo(3);
        assertThat(aggHours()).isEmpty();
        assertThat(logHours()).isEmpty();
    }

    @Test
    void aDeleteOverTheStatementTimeoutShrinksTheWindowAndTheCursorStopsBeforeIt() throws Exception {
        insertRowsAt(-11, -1);
        try (Connection blocker = TestInfrastructure.get().dataSource().getConnection();
                Statement statement = blocker.createStatement()) {
            blocker.setAutoCommit(false);
            // holds the chunk of hours -11 and -1 (V13), so every delete of a window containing either waits
            // past the timeout
            statement.execute("SELECT 1 FROM risk_hourly_chunk WHERE entity_id = '" + entity + "' FOR UPDATE");

            JsonNode result = run("\"window_minutes\": 180");

            assertThat(result.get("status").stringValue()).isEqualTo("FAILED");
            assertThat(result.get("window_minutes_used").intValue()).isEqualTo(15);
            assertThat(result.get("error").stringValue()).contains("statement timeout");
            assertThat(storedCursor()).isEqualTo(cutoff.minusHours(11));
            assertThat(aggHours()).containsExactly(-11L, -1L);
            blocker.rollback();
        }
        assertThat(run("").get("status").stringValue()).isEqualTo("COMPLETED");
        assertThat(aggHours()).isEmpty();
    }

    @Test
    void twoRunsAtOnceNeverDeleteTogether() {
        for (int hour = -12; hour < 0; hour++) {
            insertRowsAt(hour);
        }
        Archiver archiver = service.bean(Archiver.class);
        CompletableFuture<ArchiveResult> first = CompletableFuture.supplyAsync(
                () -> archiver.handle(new ArchiveCommand(UUID.randomUUID(), 60, null, false)));
        CompletableFuture<ArchiveResult> second = CompletableFuture.supplyAsync(
                () -> archiver.handle(new ArchiveCommand(UUID.randomUUID(), 60, null, false)));

        List<ArchiveResult> results = List.of(first.join(), second.join());

        assertThat(results).extracting(ArchiveResult::status).containsAnyOf(ArchiveResult.Status.COMPLETED);
        assertThat(results)
                .extracting(ArchiveResult::status)
                .allMatch(status -> status == ArchiveResult.Status.COMPLETED || status == ArchiveResult.Status.BUSY);
        assertThat(results.stream().mapToLong(ArchiveResult::deletedAggRows).sum())
                .isEqualTo(12);
        assertThat(aggHours()).isEmpty();
    }

    @Test
    void bothDeletesUseTheWindowInTheirIndexConditions() {
        // 20,000 keys of 10 hourly buckets, a chunk each (V13), beginning over 100 hours from cutoff + 100 h
        db.update("""
                INSERT INTO risk_hourly_chunk (entity_id, channel_code, direction_code, first_ts, hours, sums, counts,
                                               amount_before, count_before, running_amount, running_count, rewrites)
                SELECT gen_random_uuid(), ?, 'OUT', first.ts,
                       ARRAY(SELECT risk_hour_number(first.ts) + hour FROM generate_series(0, 9) AS hour),
                       array_fill(CAST(1 AS bigint), ARRAY[10]), array_fill(1, ARRAY[10]), 0, 0, 10, 10, 0
                FROM generate_series(1, 20000) AS key,
                     LATERAL (SELECT CAST(? AS timestamp) + make_interval(hours => key % 100) AS ts) AS first
                """, channel, cutoff.plusHours(100));
        db.update("""
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, decided_at)
                SELECT gen_random_uuid(), ?, 'OUT', gen_random_uuid(), ?::timestamp + make_interval(hours => n % 10),
                       'APPROVED', 1, 'USD', clock_timestamp()
                FROM generate_series(1, 100000) AS n
                """, channel, cutoff.plusHours(100));
        db.execute("ANALYZE risk_hourly_chunk");
        db.execute("ANALYZE risk_request_log");

        // the buckets in chunks (V13) are found by the chunks' first hours, before the window's end
        String aggPlan = plan("DELETE FROM risk_hourly_chunk WHERE first_ts < '%2$s'"
                + " AND key_hash BETWEEN -9223372036854775808 AND -7173733806442603010");
        String logPlan = plan("DELETE FROM risk_request_log WHERE bucket_ts >= '%s' AND bucket_ts < '%s'"
                + " AND key_hash BETWEEN -9223372036854775808 AND -7173733806442603010");

        assertThat(aggPlan)
                .contains("risk_hourly_chunk_archive_idx")
                .contains("Index Cond: ((first_ts <")
                .doesNotContain("Seq Scan");
        assertThat(logPlan)
                .contains("risk_request_log_archive_idx")
                .contains("Index Cond: ((bucket_ts >=")
                .doesNotContain("Seq Scan");
        db.update("DELETE FROM risk_hourly_chunk WHERE channel_code = ?", channel);
        db.update("DELETE FROM risk_request_log WHERE channel_code = ?", channel);
    }

    @Test
    void aRetentionShorterThanTheLongestWindowIsRefusedAtStartUp() {
        assertThatThrownBy(() -> RunningService.start(
                        RunningService.Topics.unique(),
                        // holds must expire within retention, so their longest time goes below it
                        Map.of("risk.retention", "7d", "risk.holds.max-ttl", "1d", "risk.holds.ttl", "1d")))
                .rootCause()
                .hasMessageContaining("risk.retention is 7d but a limit uses the ")
                .hasMessageContaining("window, which spans up to");
    }

    private String plan(String deleteTemplate) {
        String sql = String.format(deleteTemplate, cutoff.plusHours(101), cutoff.plusHours(104));
        return String.join("\n", db.queryForList("EXPLAIN " + sql, String.class));
    }

    private JsonNode run(String fields) {
        return run(UUID.randomUUID(), fields);
    }

    /** Sends a command and returns its answer, validated against the result schema. */
    private JsonNode run(UUID commandId, String fields) {
        String command = "{\"command_id\": \"" + commandId + "\"" + (fields.isEmpty() ? "" : ", " + fields) + "}";
        long before = results().stream()
                .filter(result -> commandId.toString().equals(text(result, "command_id")))
                .count();
        try (KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            TestKafka.send(
                    producer,
                    TOPICS.archiveCommands(),
                    null,
                    commandId.toString(),
                    command.getBytes(StandardCharsets.UTF_8));
        }
        List<ConsumerRecord<byte[], byte[]>> records = TestKafka.readUntil(
                TOPICS.archiveResults(),
                Duration.ofSeconds(90),
                read -> read.stream()
                                .filter(record ->
                                        commandId.toString().equals(text(JSON.readTree(record.value()), "command_id")))
                                .count()
                        > before);
        ConsumerRecord<byte[], byte[]> answer = records.stream()
                .filter(record -> commandId.toString().equals(text(JSON.readTree(record.value()), "command_id")))
                .reduce((earlier, later) -> later)
                .orElseThrow();
        DecisionSchema.assertValidArchiveResult(answer.value());
        return JSON.readTree(answer.value());
    }

    private List<JsonNode> results() {
        return TestKafka.readAvailable(TOPICS.archiveResults()).stream()
                .map(record -> JSON.readTree(record.value()))
                .toList();
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.stringValue();
    }

    private void insertRowsAt(int... hoursFromCutoff) {
        for (int hour : hoursFromCutoff) {
            LocalDateTime bucket = cutoff.plusHours(hour);
            db.update("""
                    INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
                    VALUES (?, ?, 'OUT', ?, 100, 1)
                    """, entity, channel, bucket);
            db.update("""
                    INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                                  decision, amount, currency, decided_at)
                    VALUES (?, ?, 'OUT', ?, ?, 'APPROVED', 100, 'USD', clock_timestamp())
                    """, entity, channel, UUID.randomUUID(), bucket);
        }
    }

    private void insertLedgersAt(int... hoursFromCutoff) {
        for (int hour : hoursFromCutoff) {
            LocalDateTime bucket = cutoff.plusHours(hour);
            db.update("""
                    INSERT INTO risk_authorization_ledger (entity_id, channel_code, direction_code, dedupe_id,
                                                           bucket_ts, parts, status, expires_at, count_hour)
                    VALUES (?, ?, 'OUT', ?, ?, '[]', 'EXPIRED', now(), NULL)
                    """, entity, channel, UUID.randomUUID(), bucket);
        }
    }

    /** An entity whose key on the test's channel and whose entity scope key the archiver deletes in two slices. */
    private UUID entityWhoseScopeBucketIsInAnotherSliceThanItsKey() {
        List<HashSlots.Slot> slots =
                HashSlots.of(service.bean(ArchiverProperties.class).workers());
        while (true) {
            UUID candidate = UUID.randomUUID();
            long keyHash =
                    db.queryForObject("SELECT risk_business_key_hash(?, ?, 'OUT')", Long.class, candidate, channel);
            long scopeHash =
                    db.queryForObject("SELECT risk_scope_key_hash('entity', ?, '*', 'OUT')", Long.class, candidate);
            if (slotOf(slots, keyHash) != slotOf(slots, scopeHash)) {
                return candidate;
            }
        }
    }

    private static int slotOf(List<HashSlots.Slot> slots, long hash) {
        return slots.stream()
                .filter(slot -> slot.first() <= hash && hash <= slot.last())
                .findFirst()
                .orElseThrow()
                .index();
    }

    /** A bucket at each of the three scopes, the test's entity owning all of them. */
    private void insertScopeRowsAt(int... hoursFromCutoff) {
        for (int hour : hoursFromCutoff) {
            db.update(
                    """
                    INSERT INTO risk_scope_hourly_agg (scope, owner_id, channel_code, direction_code, bucket_ts,
                                                       sum_amount, tx_count)
                    VALUES ('entity', ?, '*', 'OUT', ?, 100, 1),
                           ('account_channel', ?, ?, 'OUT', ?, 100, 1),
                           ('account', ?, '*', 'OUT', ?, 100, 1)
                    """,
                    entity,
                    cutoff.plusHours(hour),
                    entity,
                    channel,
                    cutoff.plusHours(hour),
                    entity,
                    cutoff.plusHours(hour));
        }
    }

    private List<Long> scopeHours() {
        return db.queryForList(
                "SELECT extract(epoch FROM bucket_ts - ?::timestamp)::bigint / 3600 FROM risk_scope_hourly_agg"
                        + " WHERE owner_id = ? ORDER BY bucket_ts",
                Long.class,
                cutoff,
                entity);
    }

    private void insertKeylessRowAt(int hourFromCutoff) {
        db.update(
                "INSERT INTO risk_keyless_request_log (dedupe_id, errors, bucket_ts, decided_at)"
                        + " VALUES (?, '[]'::jsonb, ?, clock_timestamp())",
                UUID.randomUUID(),
                cutoff.plusHours(hourFromCutoff));
    }

    private void setCursor(LocalDateTime cursor) {
        db.update("DELETE FROM risk_archive_cursor");
        db.update("INSERT INTO risk_archive_cursor (cursor_ts) VALUES (?)", cursor);
    }

    private LocalDateTime storedCursor() {
        return db.queryForObject("SELECT cursor_ts FROM risk_archive_cursor", LocalDateTime.class);
    }

    // the running totals of the test's buckets from the cutoff on, and the totals before each
    private List<String> totalsFromTheCutoff() {
        return db.queryForList("""
                SELECT concat_ws(' ', bucket_ts, running_amount, running_count, amount_before, count_before)
                FROM risk_hourly_agg
                WHERE entity_id = ? AND channel_code = ? AND bucket_ts >= ?
                ORDER BY bucket_ts
                """, String.class, entity, channel, cutoff);
    }

    private List<Long> aggHours() {
        return hoursOf("risk_hourly_agg");
    }

    private List<Long> logHours() {
        return hoursOf("risk_request_log");
    }

    private List<Long> hoursOf(String table) {
        return db.queryForList(
                "SELECT extract(epoch FROM bucket_ts - ?::timestamp)::bigint / 3600 FROM " + table
                        + " WHERE entity_id = ? AND channel_code = ? ORDER BY bucket_ts",
                Long.class,
                cutoff,
                entity,
                channel);
    }

    private long keylessRows() {
        return db.queryForObject(
                "SELECT count(*) FROM risk_keyless_request_log WHERE bucket_ts >= ? AND bucket_ts < ?",
                Long.class,
                cutoff.minusHours(12),
                cutoff);
    }

    private static String utc(LocalDateTime timestamp) {
        return Instant.from(timestamp.atOffset(ZoneOffset.UTC)).toString();
    }
}
