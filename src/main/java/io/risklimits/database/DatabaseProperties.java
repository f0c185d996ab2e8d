package io.risklimits.database;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Timeouts of the service's own database sessions, so that a worker that dies or freezes inside a
 * transaction cannot hold a business key's advisory lock for long. The worst case a dead worker
 * holds a key's lock is {@link #lockHoldBound()}: its last statement runs at most statementTimeout,
 * then its transaction sits idle at most idleInTransactionTimeout before PostgreSQL ends the session
 * (a batched round trip runs up to three statements, each bounded alike: docs/security.md, "Timeouts and
 * the lock bound").
 *
 * @param lockTimeout how long one statement waits for a lock (a business key's advisory lock, a row)
 *     before it fails; the decider retries it as an infrastructure failure
 * @param statementTimeout the longest one statement may run (the archiver's deletes have their own,
 *     risk.archiver.statement-timeout, set per transaction)
 * @param idleInTransactionTimeout how long a session may sit inside a transaction without running a
 *     statement before PostgreSQL terminates it, releasing its locks
 * @param allowInsecure start even with sslmode=disable towards a host that is not this machine
 */
@ConfigurationProperties("risk.database")
public record DatabaseProperties(
        @DefaultValue("10s") Duration lockTimeout,
        @DefaultValue("30s") Duration statementTimeout,
        @DefaultValue("15s") Duration idleInTransactionTimeout,
        @DefaultValue("false") boolean allowInsecure) {

    public DatabaseProperties {
        requirePositive("risk.database.lock-timeout", lockTimeout);
        requirePositive("risk.database.statement-timeout", statementTimeout);
        requirePositive("risk.database.idle-in-transaction-timeout", idleInTransactionTimeout);
    }

    /** The longest a dead worker's session can keep a lock: its last statement, then the idle timeout. */
    public Duration lockHoldBound() {
        return statementTimeout.plus(idleInTransactionTimeout);
    }

    /** PgJDBC's options connection property: sets the timeouts at session start, before any statement. */
    String sessionOptions() {
        return "-c lock_timeout=" + lockTimeout.toMillis()
                + " -c statement_timeout=" + statementTimeout.toMillis()
                + " -c idle_in_transaction_session_timeout=" + idleInTransactionTimeout.toMillis();
    }

    private static void requirePositive(String property, Duration value) {
        // 0 means "no timeout" to PostgreSQL: exactly what these settings exist to prevent
        if (value == null || value.isNegative() || value.isZero() || value.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(property + " must be between 1ms and " + Integer.MAX_VALUE
                    + "ms (0 would mean no timeout at all), not " + value);
        }
    }
}
