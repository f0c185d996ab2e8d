package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.TestInfrastructure;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * risk_begin_scoped_batch_decision, the first statement of every batched decision: it refuses a
 * snapshot that could predate the locks, and the clock it returns is read after them.
 */
@ExtendWith(NoRowsLeftBehind.class)
class BeginBatchDecisionIT {

    private final DataSource dataSource = TestInfrastructure.get().dataSource();
    private final UUID entity = UUID.randomUUID();

    @Test
    void refusesTransactionsWhoseSnapshotWouldPredateTheLocks() throws SQLException {
        for (int isolation : new int[] {Connection.TRANSACTION_REPEATABLE_READ, Connection.TRANSACTION_SERIALIZABLE}) {
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(false);
                connection.setTransactionIsolation(isolation);
                try {
                    assertThatThrownBy(() -> begin(connection))
                            .isInstanceOf(SQLException.class)
                            .hasMessageContaining("READ COMMITTED transactions only")
                            .extracting(failure -> ((SQLException) failure).getSQLState())
                            .isEqualTo("25000");
                } finally {
                    connection.rollback();
                    connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                }
            }
        }
    }

    @Test
    void theClockIsReadAfterTheLockIsGranted() throws Exception {
        try (Connection holder = dataSource.getConnection();
                Connection waiter = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            waiter.setAutoCommit(false);
            begin(holder);
            CompletableFuture<OffsetDateTime> waited = CompletableFuture.supplyAsync(() -> {
                try {
                    return begin(waiter);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            // the waiter is blocked on the key's lock until the holder ends its transaction
            TimeUnit.MILLISECONDS.sleep(300);
            assertThat(waited).isNotDone();
            OffsetDateTime released = clock(holder);
            holder.commit();

            assertThat(waited.get(10, TimeUnit.SECONDS)).isAfter(released);
            waiter.rollback();
        }
    }

    @Test
    void tellsTheRunningTotalsTriggersToStandAsideForTheTransaction() throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            begin(connection);
            assertThat(setting(connection)).isEqualTo("statement");
            connection.commit();
            assertThat(setting(connection)).isNullOrEmpty();
            connection.setAutoCommit(true);
        }
    }

    private OffsetDateTime begin(Connection connection) throws SQLException {
        return BatchBegin.begin(connection, entity);
    }

    private static OffsetDateTime clock(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT clock_timestamp()")) {
            rs.next();
            return rs.getObject(1, OffsetDateTime.class);
        }
    }

    private static String setting(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rs =
                        statement.executeQuery("SELECT current_setting('risk.running_totals_written_by', true)")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
