package io.risklimits.limits;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Window;
import java.util.List;
import java.util.UUID;
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
            SELECT channel, direction, entity_id, window_name, max_amount, max_count
            FROM risk_limit
            """;

    private final JdbcClient jdbc;
    private volatile LimitTable table;

    LimitCatalog(JdbcClient jdbc) {
        this.jdbc = jdbc;
        this.table = load();
    }

    public Limits limitsFor(BusinessKey key) {
        return table.limitsFor(key);
    }

    @Scheduled(fixedDelayString = "${risk.limits.refresh:5s}", initialDelayString = "${risk.limits.refresh:5s}")
    public void refresh() {
        try {
            table = load();
        } catch (RuntimeException e) {
            // keep deciding with the last limits read rather than stopping; the next refresh retries
            log.warn("Could not reload risk_limit, keeping the previous limits: {}", e.toString());
        }
    }

    private LimitTable load() {
        List<LimitRow> rows = jdbc.sql(SELECT_LIMITS)
                .query((rs, rowNum) -> new LimitRow(
                        rs.getString("channel"),
                        rs.getString("direction"),
                        rs.getObject("entity_id", UUID.class),
                        Window.fromLabel(rs.getString("window_name")),
                        rs.getLong("max_amount"),
                        rs.getLong("max_count")))
                .list();
        return new LimitTable(rows);
    }
}
