package io.risklimits.decision.store;

import io.risklimits.support.DecisionTimeFunctions;
import io.risklimits.support.TestInfrastructure;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * A database clock the test sets, for the batched store: the store takes the time of its decisions (and so
 * their hour bucket) from risk_begin_scoped_batch_decision and risk_lock_scope_keys, and on this data
 * source's one connection those names find {@link DecisionTimeFunctions}, which answer the time last
 * {@link #set}. {@link #clock()} is the same time as this machine's clock, so that the store sends its
 * usage read for the right hour at once.
 */
final class SetDatabaseClock implements AutoCloseable {

    private final String schema = "set_clock_" + UUID.randomUUID().toString().replace("-", "");
    private final SingleConnectionDataSource dataSource;
    private final JdbcTemplate db;
    private final TestKeys keys = new TestKeys();
    private volatile Instant now;

    SetDatabaseClock(Instant start) {
        TestInfrastructure infrastructure = TestInfrastructure.get();
        dataSource = new SingleConnectionDataSource(
                infrastructure.jdbcUrl(), infrastructure.username(), infrastructure.password(), true);
        db = new JdbcTemplate(dataSource);
        db.execute("CREATE SCHEMA " + schema);
        db.execute(DecisionTimeFunctions.create(schema, "current_setting('risk_test.now')"));
        db.execute("SET search_path = " + schema + ", public");
        set(start);
    }

    /** The one connection on which the batch's lock functions answer the time set. */
    DataSource dataSource() {
        return dataSource;
    }

    /** From now on, the database clock and {@link #clock()} say this. */
    void set(Instant instant) {
        db.queryForObject("SELECT set_config('risk_test.now', ?, false)", String.class, instant.toString());
        now = instant;
    }

    /** This machine's clock, as the store sees it: the time set. */
    Clock clock() {
        return new Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                throw new UnsupportedOperationException("the set clock is in UTC");
            }

            @Override
            public Instant instant() {
                return now;
            }
        };
    }

    /** Business keys of the test's own, whose rows {@link #close} deletes before the clock goes. */
    TestKeys keys() {
        return keys;
    }

    @Override
    public void close() {
        try {
            keys.deleteTheirRows(db);
            db.execute("DROP SCHEMA " + schema + " CASCADE");
        } finally {
            dataSource.destroy();
        }
    }
}
