package io.risklimits.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.risklimits.kafka.FailureKind;
import io.risklimits.support.DecisionMessage;
import io.risklimits.support.Events;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A worker that dies or freezes inside a transaction while holding a business key's advisory lock
 * (simulated: a connection of the service's own pool takes the lock, then goes quiet) loses it when
 * PostgreSQL ends its session after risk.database.idle-in-transaction-timeout. Meanwhile a decision
 * for that key fails on risk.database.lock-timeout, is retried as an infrastructure failure, and goes
 * through once the lock is free: not dead-lettered, not lost. Short timeouts keep the test quick.
 */
class DeadWorkerLockIT {

    private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration IDLE_IN_TRANSACTION_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration STATEMENT_TIMEOUT = Duration.ofSeconds(10);
    private static final RunningService.Topics TOPICS = RunningService.Topics.unique();
    private static RunningService service;

    private final JdbcTemplate owner = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final String channel = "DEAD_" + TOPICS.suffix().toUpperCase();
    private final UUID entity = UUID.randomUUID();

    @BeforeAll
    static void startService() {
        service = RunningService.start(
                TOPICS,
                Map.of(
                        "risk.roles", "decider",
                        // one consumer: no rebalance between threads, which would restart the retry count
                        "risk.decider.concurrency", 1,
                        "risk.database.lock-timeout", LOCK_TIMEOUT.toMillis() + "ms",
                        "risk.database.idle-in-transaction-timeout", IDLE_IN_TRANSACTION_TIMEOUT.toMillis() + "ms",
                        "risk.database.statement-timeout", STATEMENT_TIMEOUT.toMillis() + "ms"));
    }

    @AfterAll
    static void stopService() {
        service.close();
    }

    @Test
    void everyPooledConnectionHasTheTimeouts() {
        JdbcTemplate pooled = new JdbcTemplate(service.bean(DataSource.class));

        assertThat(pooled.queryForObject("SHOW lock_timeout", String.class)).isEqualTo("1s");
        assertThat(pooled.queryForObject("SHOW statement_timeout", String.class))
                .isEqualTo("10s");
        assertThat(pooled.queryForObject("SHOW idle_in_transaction_session_timeout", String.class))
                .isEqualTo("10s");
    }

    @Test
    void aDeadWorkersLockIsReleasedWithinTheBoundAndTheBlockedDecisionIsRetriedNotDeadLettered() throws SQLException {
        UUID dedupeId = UUID.randomUUID();
        try (Connection deadWorker = service.bean(DataSource.class).getConnection();
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            int deadPid = lockTheKeyAndGoQuiet(deadWorker);
            long lockedAt = System.nanoTime();

            TestKafka.send(
                    producer,
                    TOPICS.transactions(),
                    null,
                    Events.businessKey(entity, channel, "OUT"),
                    Events.json(Events.event(dedupeId, entity, channel, "OUT", 700)));

            // PostgreSQL ends the quiet session within the idle timeout (plus its once-a-second check)
            Awaitility.await()
                    .atMost(IDLE_IN_TRANSACTION_TIMEOUT.plusSeconds(3))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> !sessionExists(deadPid));
            Duration released = Duration.ofNanos(System.nanoTime() - lockedAt);
            assertThat(released).isGreaterThanOrEqualTo(IDLE_IN_TRANSACTION_TIMEOUT.minusMillis(100));

            List<ConsumerRecord<byte[], byte[]>> decisions =
                    TestKafka.readAtLeast(TOPICS.decisions(), 1, Duration.ofSeconds(60));
            Duration decided = Duration.ofNanos(System.nanoTime() - lockedAt);

            DecisionMessage decision = DecisionMessage.of(decisions.get(0));
            assertThat(decision.dedupeId()).isEqualTo(dedupeId.toString());
            assertThat(decision.decision()).isEqualTo("APPROVED");
            // one try waits at most the lock timeout: a decision this late took several, each retried
            assertThat(decided).isGreaterThan(LOCK_TIMEOUT.multipliedBy(3));
            assertThat(decided)
                    .as("the bound: statement timeout + idle timeout, plus one retry pause")
                    .isLessThan(
                            STATEMENT_TIMEOUT.plus(IDLE_IN_TRANSACTION_TIMEOUT).plusSeconds(5));
            assertThat(catchThrowable(() -> deadWorker.createStatement().execute("SELECT 1")))
                    .as("the dead worker's session is gone")
                    .isInstanceOf(SQLException.class);
        }
        assertThat(TestKafka.readAvailable(TOPICS.deadLetter()))
                .as("dead letters")
                .isEmpty();
        assertThat(TestKafka.readAvailable(TOPICS.decisions())).as("decisions").hasSize(1);
        assertThat(owner.queryForObject(
                        "SELECT count(*) FROM risk_request_log WHERE entity_id = ? AND channel_code = ?",
                        Long.class,
                        entity,
                        channel))
                .isEqualTo(1);
    }

    @Test
    void aLockTimeoutIsAnInfrastructureFailureSoTheDeciderRetriesIt() throws SQLException {
        DataSource pool = service.bean(DataSource.class);
        try (Connection holder = pool.getConnection()) {
            lockTheKeyAndGoQuiet(holder);
            long started = System.nanoTime();

            Throwable failure = catchThrowable(() -> new JdbcTemplate(pool)
                    .queryForObject(
                            "SELECT pg_advisory_xact_lock(risk_business_key_hash(?, ?, 'OUT'))::text",
                            String.class,
                            entity,
                            channel));

            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .isBetween(LOCK_TIMEOUT, LOCK_TIMEOUT.plusSeconds(3));
            assertThat(failure).hasMessageContaining("lock timeout");
            assertThat(FailureKind.of(failure)).isEqualTo(FailureKind.INFRASTRUCTURE);
            holder.rollback();
        }
    }

    /** Takes the business key's lock in an open transaction and returns the session's process id. */
    private int lockTheKeyAndGoQuiet(Connection connection) throws SQLException {
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.execute(
                    "SELECT pg_advisory_xact_lock(risk_business_key_hash('" + entity + "', '" + channel + "', 'OUT'))");
            var pid = statement.executeQuery("SELECT pg_backend_pid()");
            pid.next();
            return pid.getInt(1);
        }
    }

    private boolean sessionExists(int pid) {
        return owner.queryForObject("SELECT count(*) FROM pg_stat_activity WHERE pid = ?", Long.class, pid) > 0;
    }
}
