package io.risklimits.limits;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Limits;
import io.risklimits.decision.RetentionRule;
import io.risklimits.decision.ScopeKey;
import io.risklimits.shared.RiskProperties;
import io.risklimits.shared.StartRefused;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The limits in force: risk_limit read at start-up and again every risk.limits.refresh, so a
 * change takes effect without a restart and deciding costs no query for limits.
 */
@Component
public class LimitCatalog {

    private static final Logger log = LoggerFactory.getLogger(LimitCatalog.class);

    private static final String SELECT_LIMITS = """
            SELECT channel, direction, entity_id, window_name, max_amount, max_count, mode, scope, account_id
            FROM risk_limit
            """;

    private final JdbcClient jdbc;
    private volatile LimitTable table;

    /** Refuses to start when risk.retention is shorter than a window in use (see {@link RetentionRule}). */
    LimitCatalog(JdbcClient jdbc, RiskProperties risk) {
        this.jdbc = jdbc;
        this.table = load();
        RetentionRule.shortfall(risk.retention(), table.windowsInUse()).ifPresent(shortfall -> {
            throw new StartRefused(
                    shortfall,
                    "Raise risk.retention (default 32d), or remove the limits of the longer window from risk_limit.");
        });
    }

    /** The enforced limits of the business key, with its shadow set when a shadow row matches it. */
    public Limits limitsFor(BusinessKey key) {
        return table.limitsFor(key);
    }

    /** The enforced limits of the scope key, with its shadow set when a shadow row matches it. */
    public Limits limitsFor(ScopeKey key) {
        return table.limitsFor(key);
    }

    /**
     * The limits of each scope key as read by the last refresh, and by that refresh alone however many
     * come after: a batch decides against one snapshot, so a scope key whose usage no limit checked when it
     * was read is not checked against a limit read later in the batch.
     */
    public Function<ScopeKey, Limits> snapshot() {
        LimitTable current = table;
        return current::limitsFor;
    }

    @Scheduled(
            fixedDelayString = "#{@'risk.limits-io.risklimits.limits.LimitsProperties'.refresh().toMillis()}",
            initialDelayString = "#{@'risk.limits-io.risklimits.limits.LimitsProperties'.refresh().toMillis()}")
    public void refresh() {
        try {
            table = load();
        } catch (RuntimeException e) {
            // keep deciding with the last limits read rather than stopping; the next refresh retries
            log.warn("Could not reload risk_limit, keeping the previous limits: {}", e.toString());
        }
    }

    private LimitTable load() {
        List<LimitRow> rows =
                jdbc.sql(SELECT_LIMITS).query(LimitRowMapper.INSTANCE).list();
        return new LimitTable(rows);
    }
}
