package io.risklimits.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.UncategorizedSQLException;

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

    @Test
    void aConstraintViolationBelongsToTheRecord() {
        assertThat(FailureKind.of(new SQLException("violates check constraint", "23514")))
                .isEqualTo(FailureKind.RECORD);
    }
}
