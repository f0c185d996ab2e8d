package io.risklimits.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.kafka.core.KafkaProducerException;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.listener.ListenerExecutionFailedException;

class FailureKindTest {

    /** Spring leaves 55P03 uncategorized (found by DeadWorkerLockIT): only the SQLSTATE says what it is. */
    @Test
    void aLockTimeoutIsRetriedNotDeadLettered() {
        SQLException lockTimeout = new SQLException("canceling statement due to lock timeout", "55P03");

        assertThat(FailureKind.of(new UncategorizedSQLException("lock", "SELECT 1", lockTimeout)))
                .isEqualTo(FailureKind.INFRASTRUCTURE);
    }

    @Test
    void aStatementTimeoutAndALostConnectionAreRetried() {
        assertThat(FailureKind.of(new SQLException("canceling statement due to statement timeout", "57014")))
                .isEqualTo(FailureKind.INFRASTRUCTURE);
        assertThat(FailureKind.of(new SQLException("terminating connection", "08006")))
                .isEqualTo(FailureKind.INFRASTRUCTURE);
    }

    /**
     * A decision is stored before it is sent: a decisions topic that refuses it (found by the fault
     * suite's decisions-unwritable scenario, max.message.bytes below a decision) must hold the
     * partition until fixed, not dead-letter an event whose decision would then never be published.
     */
    @Test
    void aSendTheBrokerRefusesIsRetriedNotDeadLettered() {
        KafkaProducerException refused = new KafkaProducerException(
                new ProducerRecord<>("risk.decisions", new byte[0]), "send failed", new RecordTooLargeException());

        assertThat(FailureKind.of(new BatchListenerFailedException("Sending the decision failed", refused, 3)))
                .isEqualTo(FailureKind.INFRASTRUCTURE);
    }

    /** What the listener threw reaches the error policy wrapped by spring-kafka: the wrapper says nothing. */
    @Test
    void aRecordTheDatabaseRefusesBelongsToTheRecordWhateverWrapsIt() {
        SQLException refused = new SQLException("violates check constraint", "23514");

        assertThat(FailureKind.of(new ListenerExecutionFailedException(
                        "Listener failed", new BatchListenerFailedException("Deciding failed", refused, 1))))
                .isEqualTo(FailureKind.RECORD);
    }

    @Test
    void aConstraintViolationBelongsToTheRecord() {
        assertThat(FailureKind.of(new SQLException("violates check constraint", "23514")))
                .isEqualTo(FailureKind.RECORD);
    }

    /** Deciding it again gives the same overflow: retried forever, it would hold its partition. */
    @Test
    void anAmountBeyondTheLongRangeBelongsToTheRecord() {
        assertThat(FailureKind.of(new BatchListenerFailedException(
                        "Deciding failed", new ArithmeticException("long overflow"), 1)))
                .isEqualTo(FailureKind.RECORD);
    }
}
