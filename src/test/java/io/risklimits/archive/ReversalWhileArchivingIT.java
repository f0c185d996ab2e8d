package io.risklimits.archive;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.time.LocalDateTime;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A reversal decided while the archiver is between its two deletes of a window: whichever table the
 * archiver deletes first, a reversal of an original past retention is ORIGINAL_NOT_FOUND and gives
 * nothing back to an hour the archiver deletes. The archiver is held at its second delete by a row
 * lock of the test's own (a blocker key in the same window and, with one worker, the same hash slot):
 * each table has one blocker row locked; the first delete to wait is let through, the second is held.
 */
class ReversalWhileArchivingIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private final DataSource dataSource = TestInfrastructure.get().dataSource();
    private final JdbcTemplate db = new JdbcTemplate(dataSource);
    private final String channel =
            "RWA_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();
    private final UUID entity = UUID.randomUUID();
    private final UUID blockerEntity = UUID.randomUUID();

    @Test
    void aReversalDecidedBetweenTheArchiversTwoDeletesFindsNoOriginalAndReleasesNothing() throws Exception {
        HourBoundary.awaitClearOfTheNextHour(Duration.ofMinutes(3));
        LocalDateTime cutoff = db.queryForObject(
                "SELECT date_trunc('hour', (now() AT TIME ZONE 'UTC') - interval '32 days')", LocalDateTime.class);
        LocalDateTime pastRetention = cutoff.minusHours(1);
        db.update("DELETE FROM risk_archive_lease");
        for (String table : new String[] {"risk_hourly_agg", "risk_request_log", "risk_keyless_request_log"}) {
            db.update("DELETE FROM " + table + " WHERE bucket_ts >= ? AND bucket_ts < ?", cutoff.minusHours(2), cutoff);
        }
        db.update("DELETE FROM risk_archive_cursor");
        db.update("INSERT INTO risk_archive_cursor (cursor_ts) VALUES (?)", cutoff.minusHours(2));
        UUID original = UUID.randomUUID();
        insertApprovedAndCounted(entity, original, pastRetention);
        insertApprovedAndCounted(blockerEntity, UUID.randomUUID(), pastRetention);

        RunningService.Topics topics = RunningService.Topics.unique();
        try (RunningService service = RunningService.start(
                        topics, Map.of("risk.archiver.workers", 1, "risk.archiver.statement-timeout", "5m"));
                Connection bucketHolder = dataSource.getConnection();
                Connection auditRowHolder = dataSource.getConnection();
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            int bucketHolderPid = lockBlockerRow(bucketHolder, "risk_hourly_agg");
            int auditRowHolderPid = lockBlockerRow(auditRowHolder, "risk_request_log");
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
                    topics.transactions(),
                    null,
                    Events.businessKey(entity, channel, "OUT"),
                    Events.json(Events.reversal(reversal, entity, channel, "OUT", 400, original)));
            DecisionMessage decided = TestKafka.readUntil(
                            topics.decisions(),
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

    /** Locks the blocker key's row of the table in a transaction left open; the holder's backend pid. */
    private int lockBlockerRow(Connection holder, String table) throws SQLException {
        holder.setAutoCommit(false);
        try (Statement statement = holder.createStatement()) {
            statement.execute("SELECT 1 FROM " + table + " WHERE entity_id = '" + blockerEntity
                    + "' AND channel_code = '" + channel + "' FOR UPDATE");
            try (ResultSet pid = statement.executeQuery("SELECT pg_backend_pid()")) {
                pid.next();
                return pid.getInt(1);
            }
        }
    }

    private boolean blocksAnother(int holderPid) {
        return Boolean.TRUE.equals(db.queryForObject(
                "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE ? = ANY (pg_blocking_pids(pid)))",
                Boolean.class,
                holderPid));
    }
}
