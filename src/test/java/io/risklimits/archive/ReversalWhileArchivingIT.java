package io.risklimits.archive;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.Direction;
import io.risklimits.decision.EventType;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.store.BatchDecisionStore;
import io.risklimits.limits.LimitCatalog;
import io.risklimits.support.ArchiveWindows;
import io.risklimits.support.DecisionMessage;
import io.risklimits.support.Events;
import io.risklimits.support.HourBoundary;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Reversals decided while the archiver deletes their originals' hour: none is RELEASED into an hour
 * whose bucket is gone. A reversal decided between the archiver's two deletes of a window finds no
 * original; one that found its original first holds the archiver up until its release is written; one
 * decided while the original's row is being deleted finds none, without waiting. The archiver and the
 * decider are held at chosen statements by row locks of the test's own, never by sleeps.
 */
class ReversalWhileArchivingIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final RunningService.Topics TOPICS = RunningService.Topics.unique();
    private static RunningService service;

    private final DataSource dataSource = TestInfrastructure.get().dataSource();
    private final JdbcTemplate db = new JdbcTemplate(dataSource);
    private final String channel =
            "RWA_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();
    private final UUID entity = UUID.randomUUID();
    private final UUID blockerEntity = UUID.randomUUID();
    private final UUID original = UUID.randomUUID();

    /** One worker: every key of the window is in the one hash slot. */
    @BeforeAll
    static void startService() {
        service = RunningService.start(
                TOPICS, Map.of("risk.archiver.workers", 1, "risk.archiver.statement-timeout", "5m"));
    }

    @AfterAll
    static void stopService() {
        service.close();
    }

    /**
     * The original, approved and counted an hour before the cutoff; the cursor two hours before it. The
     * archiver runs from the cursor to its retention cutoff, so every row from the cursor to a day ago
     * (other test classes' rows past retention among them) is deleted first: the rows it deletes are
     * this test's alone, whatever the hour and whatever ran before.
     */
    @BeforeEach
    void anOriginalPastRetention() {
        HourBoundary.awaitClearOfTheNextHour(Duration.ofMinutes(3));
        LocalDateTime cutoff = ArchiveWindows.cutoff(db);
        db.update("DELETE FROM risk_archive_lease");
        ArchiveWindows.clear(db, cutoff.minusHours(2), cutoff.plusDays(31));
        db.update("DELETE FROM risk_archive_cursor");
        db.update("INSERT INTO risk_archive_cursor (cursor_ts) VALUES (?)", cutoff.minusHours(2));
        insertApprovedAndCounted(entity, original, cutoff.minusHours(1));
    }

    /**
     * A blocker key in the same window and, with one worker, the same hash slot has one row locked in
     * each table: the archiver's first delete to wait for it is let through, the second is held, so
     * the reversal is decided between the two, whichever table goes first.
     */
    @Test
    void aReversalDecidedBetweenTheArchiversTwoDeletesFindsNoOriginalAndReleasesNothing() throws Exception {
        insertApprovedAndCounted(blockerEntity, UUID.randomUUID(), pastRetention());
        try (Connection bucketHolder = dataSource.getConnection();
                Connection auditRowHolder = dataSource.getConnection();
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            int bucketHolderPid = lockRows(bucketHolder, "risk_hourly_agg", blockerEntity);
            int auditRowHolderPid = lockRows(auditRowHolder, "risk_request_log", blockerEntity);
            Archiver archiver = service.bean(Archiver.class);
            CompletableFuture<ArchiveResult> archiving = CompletableFuture.supplyAsync(
                    () -> archiver.handle(new ArchiveCommand(UUID.randomUUID(), 180, null, false)));

            Awaitility.await("the archiver's first delete to wait for a blocker row")
                    .atMost(WAIT)
                    .until(() -> blocksAnother(bucketHolderPid) || blocksAnother(auditRowHolderPid));
            boolean bucketsFirst = blocksAnother(bucketHolderPid);
            (bucketsFirst ? bucketHolder : auditRowHolder).commit();
            int secondHolderPid = bucketsFirst ? auditRowHolderPid : bucketHolderPid;
            Awaitility.await("the archiver's second delete to wait for the other blocker row")
                    .atMost(WAIT)
                    .until(() -> blocksAnother(secondHolderPid));

            UUID reversal = UUID.randomUUID();
            TestKafka.send(
                    producer,
                    TOPICS.transactions(),
                    null,
                    Events.businessKey(entity, channel, "OUT"),
                    Events.json(Events.reversal(reversal, entity, channel, "OUT", 400, original)));
            DecisionMessage decided = TestKafka.readUntil(
                            TOPICS.decisions(),
                            WAIT,
                            records -> records.stream()
                                    .anyMatch(record -> DecisionMessage.of(record)
                                            .dedupeId()
                                            .equals(reversal.toString())))
                    .stream()
                    .map(DecisionMessage::of)
                    .filter(message -> message.dedupeId().equals(reversal.toString()))
                    .findFirst()
                    .orElseThrow();
            (bucketsFirst ? auditRowHolder : bucketHolder).commit();
            ArchiveResult archived = archiving.get(WAIT.toSeconds(), TimeUnit.SECONDS);

            assertThat(decided.decision() + " " + decided.reason())
                    .as("the reversal decided between the deletes, %s first", bucketsFirst ? "buckets" : "audit rows")
                    .isEqualTo("REJECTED ORIGINAL_NOT_FOUND");
            assertThat(archived.status()).isEqualTo(ArchiveResult.Status.COMPLETED);
            assertThat(db.queryForObject(
                            "SELECT count(*) FROM risk_hourly_agg WHERE entity_id = ? AND channel_code = ?",
                            Long.class,
                            entity,
                            channel))
                    .as("buckets of the reversal's key")
                    .isZero();
            assertThat(db.queryForObject(
                            "SELECT released_amount FROM risk_request_log WHERE entity_id = ? AND dedupe_id = ?",
                            Long.class,
                            entity,
                            reversal))
                    .as("what the filed reversal gave back")
                    .isNull();
        }
    }

    /**
     * A reversal that found its original before the archiver deleted it, and is still deciding, is
     * held at its first write by a row lock of another key of its batch (an authorization counted in
     * the current hour). The archiver must not delete the original's hour under it: it waits for the
     * reversal's transaction, whose release then goes to a bucket that still exists.
     */
    @Test
    void theArchiverWaitsForAReversalThatFoundItsOriginalBeforeDeletingItsHour() throws Exception {
        BusinessKey reversed = new BusinessKey(entity, channel, Direction.OUT);
        BusinessKey counted = new BusinessKey(UUID.randomUUID(), channel, Direction.OUT);
        db.update("""
                INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
                VALUES (?, ?, 'OUT', date_trunc('hour', now() AT TIME ZONE 'UTC'), 100, 1)
                """, counted.entityId(), channel);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        TransactionEvent authorization = new TransactionEvent(UUID.randomUUID(), counted, 100, "USD", now);
        TransactionEvent reversal =
                new TransactionEvent(UUID.randomUUID(), reversed, 400, "USD", now, EventType.REVERSAL, original);
        BatchDecisionStore store = service.bean(BatchDecisionStore.class);
        LimitCatalog limits = service.bean(LimitCatalog.class);
        Archiver archiver = service.bean(Archiver.class);
        try (Connection currentBucketHolder = dataSource.getConnection()) {
            int holderPid = lockRows(currentBucketHolder, "risk_hourly_agg", counted.entityId());
            CompletableFuture<List<Decision>> deciding = CompletableFuture.supplyAsync(
                    () -> store.decideAll(List.of(authorization, reversal), limits::limitsFor));
            int deciderPid = Awaitility.await("the batch to have read the original and wait at its first write")
                    .atMost(WAIT)
                    .until(() -> blockedBy(holderPid), Objects::nonNull);

            CompletableFuture<ArchiveResult> archiving = CompletableFuture.supplyAsync(
                    () -> archiver.handle(new ArchiveCommand(UUID.randomUUID(), 180, null, false)));
            Awaitility.await("the archiver to finish, or to wait for the deciding batch")
                    .atMost(WAIT)
                    .until(() -> archiving.isDone() || blockedBy(deciderPid) != null);
            boolean archivedUnderTheReversal = archiving.isDone();
            currentBucketHolder.commit();
            List<Decision> decided = deciding.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            ArchiveResult archived = archiving.get(WAIT.toSeconds(), TimeUnit.SECONDS);

            assertThat(archivedUnderTheReversal)
                    .as("the archiver deleted the original's hour while a reversal that found it was deciding")
                    .isFalse();
            assertThat(decided.get(1).verdict()).isEqualTo(Verdict.RELEASED);
            assertThat(archived.status()).isEqualTo(ArchiveResult.Status.COMPLETED);
            assertThat(archived.deletedLogRows()).isEqualTo(1);
            assertThat(archived.deletedAggRows()).isEqualTo(1);
        }
    }

    /**
     * The archiver's delete of the original, not yet committed (held open here by the test): the
     * original is past retention and going, so a reversal decided meanwhile finds none and does not
     * wait for the delete, whose row locks it would otherwise be queued behind.
     */
    @Test
    void aReversalWhoseOriginalIsBeingDeletedFindsNoOriginalWithoutWaiting() throws Exception {
        TransactionEvent reversal = new TransactionEvent(
                UUID.randomUUID(),
                new BusinessKey(entity, channel, Direction.OUT),
                400,
                "USD",
                Instant.now().truncatedTo(ChronoUnit.MICROS),
                EventType.REVERSAL,
                original);
        BatchDecisionStore store = service.bean(BatchDecisionStore.class);
        LimitCatalog limits = service.bean(LimitCatalog.class);
        try (Connection deleting = dataSource.getConnection();
                Statement statement = deleting.createStatement()) {
            deleting.setAutoCommit(false);
            statement.execute("DELETE FROM risk_request_log WHERE entity_id = '" + entity + "' AND dedupe_id = '"
                    + original + "'");
            int deletingPid = backendPid(statement);
            CompletableFuture<List<Decision>> deciding =
                    CompletableFuture.supplyAsync(() -> store.decideAll(List.of(reversal), limits::limitsFor));
            Awaitility.await("the reversal to be decided, or to wait for the delete")
                    .atMost(WAIT)
                    .until(() -> deciding.isDone() || blockedBy(deletingPid) != null);
            boolean waited = !deciding.isDone();
            deleting.rollback();
            Decision decided = deciding.get(WAIT.toSeconds(), TimeUnit.SECONDS).get(0);

            assertThat(waited)
                    .as("the reversal waited for the delete of its original")
                    .isFalse();
            assertThat(decided.verdict() + " " + decided.reason()).isEqualTo("REJECTED ORIGINAL_NOT_FOUND");
        }
    }

    private void insertApprovedAndCounted(UUID entityId, UUID dedupeId, LocalDateTime bucket) {
        db.update("""
                INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
                VALUES (?, ?, 'OUT', ?, 1000, 1)
                """, entityId, channel, bucket);
        db.update("""
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, decided_at)
                VALUES (?, ?, 'OUT', ?, ?, 'APPROVED', 1000, 'USD', clock_timestamp())
                """, entityId, channel, dedupeId, bucket);
    }

    private LocalDateTime pastRetention() {
        return db.queryForObject(
                "SELECT bucket_ts FROM risk_request_log WHERE entity_id = ? AND dedupe_id = ?",
                LocalDateTime.class,
                entity,
                original);
    }

    /** Locks the entity's rows of the table in a transaction left open; the holder's backend pid. */
    private int lockRows(Connection holder, String table, UUID entityId) throws SQLException {
        holder.setAutoCommit(false);
        try (Statement statement = holder.createStatement()) {
            statement.execute("SELECT 1 FROM " + table + " WHERE entity_id = '" + entityId + "' AND channel_code = '"
                    + channel + "' FOR UPDATE");
            return backendPid(statement);
        }
    }

    private static int backendPid(Statement statement) throws SQLException {
        try (ResultSet pid = statement.executeQuery("SELECT pg_backend_pid()")) {
            pid.next();
            return pid.getInt(1);
        }
    }

    /** The backend that waits for the holder's locks, if one does. */
    private Integer blockedBy(int holderPid) {
        return db
                .query(
                        "SELECT pid FROM pg_stat_activity WHERE ? = ANY (pg_blocking_pids(pid))",
                        (row, rowNumber) -> row.getInt(1),
                        holderPid)
                .stream()
                .findFirst()
                .orElse(null);
    }

    private boolean blocksAnother(int holderPid) {
        return Boolean.TRUE.equals(db.queryForObject(
                "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE ? = ANY (pg_blocking_pids(pid)))",
                Boolean.class,
                holderPid));
    }
}
