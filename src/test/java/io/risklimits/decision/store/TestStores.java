package io.risklimits.decision.store;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.risklimits.decision.FxPolicy;
import io.risklimits.decision.Limit;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Window;
import io.risklimits.decision.WindowCalendar;
import io.risklimits.decision.hold.HoldTerms;
import io.risklimits.shared.Failpoints;
import java.time.Clock;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * The one place the tests wire a {@link BatchDecisionStore} by hand, as the application context wires
 * it: on one data source, calendar windows in UTC, the default hold terms (CARD authorizations are holds for
 * 7 days), a window-starts cache of its own, no failpoints.
 * Each call is a store of its own (its own cache), as a second worker would have.
 */
final class TestStores {

    private TestStores() {}

    /** A store on this machine's clock, its metrics in a registry of its own. */
    static BatchDecisionStore batchDecisionStore(DataSource dataSource) {
        return batchDecisionStore(dataSource, Clock.systemUTC());
    }

    /** A store on the given clock (the one it reads the usage for), its metrics in a registry of its own. */
    /**
     * Limits on every window of usage that no test comes near: a decision reads the usage of each scope key
     * (a store reads only the usage that limits check) and reports it, and rejects nothing for it.
     */
    static final Limits FAR_LIMITS = new Limits(Window.USAGE_WINDOWS.stream()
            .collect(Collectors.toMap(window -> window, window -> new Limit(Long.MAX_VALUE, Long.MAX_VALUE))));

    static BatchDecisionStore batchDecisionStore(DataSource dataSource, Clock clock) {
        return batchDecisionStore(dataSource, clock, new SimpleMeterRegistry());
    }

    /** A store on the given clock, its metrics in the given registry. */
    static BatchDecisionStore batchDecisionStore(DataSource dataSource, Clock clock, MeterRegistry registry) {
        return batchDecisionStore(dataSource, clock, registry, FxPolicy.only("USD"));
    }

    /** A store on this machine's clock that converts other currencies than USD by the given policy. */
    static BatchDecisionStore batchDecisionStore(DataSource dataSource, FxPolicy fx) {
        return batchDecisionStore(dataSource, Clock.systemUTC(), new SimpleMeterRegistry(), fx);
    }

    /** A store on the given clock that converts other currencies than USD by the given policy. */
    static BatchDecisionStore batchDecisionStore(DataSource dataSource, Clock clock, FxPolicy fx) {
        return batchDecisionStore(dataSource, clock, new SimpleMeterRegistry(), fx);
    }

    private static BatchDecisionStore batchDecisionStore(
            DataSource dataSource, Clock clock, MeterRegistry registry, FxPolicy fx) {
        JdbcTemplate db = new JdbcTemplate(dataSource);
        DecisionStoreMetrics metrics = new DecisionStoreMetrics(registry);
        return new BatchDecisionStore(
                db,
                clock,
                WindowCalendar.UTC,
                new DataSourceTransactionManager(dataSource),
                new RequestLogReader(),
                new RequestLogWriter(),
                new RunningUsageRepository(db, WindowCalendar.UTC, new WindowStartsCache(100), metrics),
                new HourlyUsageRepository(),
                new HoldLedgers(),
                HoldTerms.DEFAULT,
                fx,
                metrics,
                new Failpoints("", 1));
    }

    /** The expiry outbox on one data source. */
    static ExpiryOutbox expiryOutbox(DataSource dataSource) {
        JdbcTemplate db = new JdbcTemplate(dataSource);
        return new ExpiryOutbox(new SweepQueries(db), new RequestLogReader(), db);
    }
}
