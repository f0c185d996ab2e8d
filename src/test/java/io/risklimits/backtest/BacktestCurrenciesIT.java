package io.risklimits.backtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.hold.HoldTerms;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.OwnRows;
import io.risklimits.support.TestInfrastructure;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The backtest replays what decisions in other currencies than the limit currency counted, as stored with
 * them, never reconverting the event's own amount.
 */
@ExtendWith(NoRowsLeftBehind.class)
class BacktestCurrenciesIT {

    private static final Instant FROM = Instant.parse("2025-02-03T00:00:00Z");
    private static final Instant TO = Instant.parse("2025-02-04T00:00:00Z");

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final OwnRows rows = new OwnRows();

    @AfterEach
    void deleteTheirRows() {
        rows.deleteTheirRows(db);
    }

    @Test
    void theReplayedAmountOfAConvertedDecisionIsTheCountedAmountStoredWithIt() throws Exception {
        TestInfrastructure infrastructure = TestInfrastructure.get();
        UUID entity = rows.newEntity();
        UUID authorization = UUID.randomUUID();
        db.update("""
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, decided_at, type,
                                              counted_amount, fx_currency, fx_rate, fx_valid_from)
                VALUES (?, 'BTFX', 'OUT', ?, '2025-02-03 10:00', 'APPROVED', 1001, 'EUR', '2025-02-03 10:15Z',
                        'AUTHORIZATION', 1086, 'USD', 1.0842, '2025-02-03 09:00Z'),
                       (?, 'BTFX', 'OUT', ?, '2025-02-03 11:00', 'RELEASED', 333, 'EUR', '2025-02-03 11:15Z',
                        'REVERSAL', 361, 'USD', 1.0842, '2025-02-03 09:00Z')
                """, entity, authorization, entity, UUID.randomUUID());
        db.update(
                "UPDATE risk_request_log SET reverses = ?, released_amount = 361, released_count = 0"
                        + " WHERE entity_id = ? AND type = 'REVERSAL'",
                authorization,
                entity);

        List<AuditRow> replayed = new ArrayList<>();
        try (Connection reader = DriverManager.getConnection(
                infrastructure.jdbcUrl(), infrastructure.username(), infrastructure.password())) {
            new AuditLogStream(reader, HoldTerms.DEFAULT).read(FROM, TO, history -> {
                if (history.key().entityId().equals(entity)) {
                    replayed.addAll(history.rows());
                }
            });
        }

        assertThat(replayed).extracting(AuditRow::amount).containsExactly(1_086L, 361L);
    }
}
