package io.risklimits.database;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.TestInfrastructure;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * risk_lock_in_ascending_order, with which every step of a batch takes its locks: each id once, in
 * ascending order, held to the end of the transaction. Stopped at a lock another session holds, it holds
 * the smaller ids and none of the larger.
 */
class LockInAscendingOrderIT {

    private static final String HELD_ADVISORY_LOCKS = """
            SELECT (classid::bigint << 32 | objid::bigint)
            FROM pg_locks
            WHERE locktype = 'advisory' AND objsubid = 1 AND pid = ? AND granted
            ORDER BY 1
            """;

    private final DataSource dataSource = TestInfrastructure.get().dataSource();
    private final JdbcTemplate db = new JdbcTemplate(dataSource);
    // ids of this test's own, far from any business key's hash another test locks
    private final long base = ThreadLocalRandom.current().nextLong(1L << 40, 1L << 41);

    @Test
    void eachIdIsLockedOnceInAscendingOrderAndHeldToTheEndOfTheTransaction() throws Exception {
        try (Connection holder = dataSource.getConnection();
                Connection locker = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            locker.setAutoCommit(false);
            try (Statement hold = holder.createStatement()) {
                hold.execute("SELECT pg_advisory_xact_lock(" + (base + 4) + ")");
            }
            int lockerPid = pid(locker);

            CompletableFuture<Void> locking = CompletableFuture.runAsync(
                    () -> lock(locker, new Long[] {base + 5, base + 3, base + 4, base + 3, base - 2}));
            awaitWaiting(lockerPid);

            assertThat(db.queryForList(HELD_ADVISORY_LOCKS, Long.class, lockerPid))
                    .as("stopped at base + 4: the smaller ids held, the larger not yet")
                    .isEqualTo(List.of(base - 2, base + 3));
            holder.rollback();
            locking.get(30, TimeUnit.SECONDS);
            assertThat(db.queryForList(HELD_ADVISORY_LOCKS, Long.class, lockerPid))
                    .as("every id once, held until the transaction ends")
                    .isEqualTo(List.of(base - 2, base + 3, base + 4, base + 5));
            locker.rollback();
            assertThat(db.queryForList(HELD_ADVISORY_LOCKS, Long.class, lockerPid))
                    .isEmpty();
        }
    }

    private static void lock(Connection connection, Long[] ids) {
        try (PreparedStatement lock = connection.prepareStatement("SELECT risk_lock_in_ascending_order(?)")) {
            lock.setArray(1, connection.createArrayOf("bigint", ids));
            lock.execute();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static int pid(Connection connection) throws Exception {
        try (Statement statement = connection.createStatement();
                var rs = statement.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private void awaitWaiting(int pid) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (db.queryForObject(
                        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = ? AND NOT granted",
                        Long.class,
                        pid)
                == 0) {
            assertThat(System.nanoTime()).as("the locker waiting for base + 4").isLessThan(deadline);
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }
}
