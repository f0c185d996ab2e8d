package io.risklimits.kafka;

import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.JdbcUpdateAffectedIncorrectNumberOfRowsException;
import org.springframework.kafka.KafkaException;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * Sorts failures into those of one record, which are dead-lettered after a few tries, and all the
 * others (database or broker unreachable, timeouts, a worker interrupted while it waited for them,
 * and whatever is not known to be the record's), which are retried until they pass.
 */
public enum FailureKind {
    INFRASTRUCTURE,
    RECORD;

    public static FailureKind of(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (isListenerWrapper(cause)) {
                // spring-kafka's wrappers around what the listener threw say nothing of the failure
                // itself, yet are KafkaExceptions: judged by them, a record the database refuses
                // would be retried forever
                continue;
            }
            if (isTheRecords(cause)) {
                return RECORD;
            }
            if (cause instanceof TransientDataAccessException
                    || cause instanceof RecoverableDataAccessException
                    || cause instanceof DataAccessResourceFailureException
                    || cause instanceof CannotGetJdbcConnectionException
                    || cause instanceof CannotCreateTransactionException
                    || cause instanceof SQLTransientException
                    || cause instanceof SQLRecoverableException
                    || cause instanceof RetriableException
                    || cause instanceof org.apache.kafka.common.KafkaException
                    || cause instanceof KafkaException
                    || cause instanceof java.util.concurrent.TimeoutException
                    || cause instanceof InterruptedException) {
                return INFRASTRUCTURE;
            }
            if (cause instanceof java.sql.SQLException sql && isConnectionFailure(sql.getSQLState())) {
                return INFRASTRUCTURE;
            }
        }
        // what is not known to be the record's is retried: dead-lettering an event that is fine
        // would leave it without a decision
        return INFRASTRUCTURE;
    }

    /**
     * Known to be tied to the record: a value the database refuses (SQLSTATE classes 22, data
     * exception, and 23, integrity constraint violation), amounts whose arithmetic leaves the 64-bit
     * range (a follow-up, or a hold's total, beyond what a bigint of minor units can count), a batch
     * whose bucket row moved under it (decided again record by record), a record too large for the
     * dead-letter topic.
     */
    private static boolean isTheRecords(Throwable cause) {
        if (cause instanceof RecordTooLargeException
                || cause instanceof ArithmeticException
                || cause instanceof JdbcUpdateAffectedIncorrectNumberOfRowsException) {
            return true;
        }
        if (cause instanceof java.sql.SQLException sql && sql.getSQLState() != null) {
            return sql.getSQLState().startsWith("22") || sql.getSQLState().startsWith("23");
        }
        return false;
    }

    private static boolean isListenerWrapper(Throwable cause) {
        return cause instanceof ListenerExecutionFailedException || cause instanceof BatchListenerFailedException;
    }

    /**
     * SQLSTATE classes 08 (connection), 53 (resources), 57 (operator intervention: shutdown, cancel,
     * statement timeout), and 55P03 lock_not_available: risk.database.lock-timeout ran out while another
     * session (perhaps a dead worker, until PostgreSQL ends it) held the business key's lock. Nothing is
     * wrong with the record, so it is retried, never dead-lettered.
     */
    private static boolean isConnectionFailure(String sqlState) {
        return sqlState != null
                && (sqlState.startsWith("08")
                        || sqlState.startsWith("53")
                        || sqlState.startsWith("57")
                        || sqlState.equals("55P03"));
    }
}
