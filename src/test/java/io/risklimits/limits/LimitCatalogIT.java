package io.risklimits.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.Limit;
import io.risklimits.decision.Limits;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Window;
import io.risklimits.shared.RiskProperties;
import io.risklimits.support.TestInfrastructure;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A snapshot of the limits answers as the refresh before it read risk_limit, whatever refreshes come
 * after: a batch reads a scope key's usage only when its limits check it, and decides against the same
 * limits.
 */
class LimitCatalogIT {

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final String channel =
            "SNAP_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();
    private final ScopeKey key = ScopeKey.of(new BusinessKey(UUID.randomUUID(), channel, Direction.OUT));

    @AfterEach
    void deleteLimits() {
        db.update("DELETE FROM risk_limit WHERE channel = ?", channel);
    }

    @Test
    void aSnapshotKeepsTheLimitsOfItsRefreshWhileTheCatalogMovesOn() {
        LimitCatalog catalog = new LimitCatalog(
                JdbcClient.create(TestInfrastructure.get().dataSource()),
                new RiskProperties(List.of("decider"), "USD", Duration.ofMinutes(5), Duration.ofDays(32)));
        setLimit(1_000);
        catalog.refresh();
        Function<ScopeKey, Limits> before = catalog.snapshot();

        setLimit(2_000);
        catalog.refresh();

        assertThat(before.apply(key).of(Window.LAST_24_HOURS)).isEqualTo(new Limit(1_000L, 10L));
        assertThat(catalog.snapshot().apply(key).of(Window.LAST_24_HOURS)).isEqualTo(new Limit(2_000L, 10L));
        assertThat(catalog.limitsFor(key).of(Window.LAST_24_HOURS)).isEqualTo(new Limit(2_000L, 10L));
    }

    private void setLimit(long maxAmount) {
        if (db.update("UPDATE risk_limit SET max_amount = ? WHERE channel = ?", maxAmount, channel) == 0) {
            db.update(
                    "INSERT INTO risk_limit (channel, direction, window_name, max_amount, max_count)"
                            + " VALUES (?, 'OUT', '24h', ?, 10)",
                    channel,
                    maxAmount);
        }
    }
}
