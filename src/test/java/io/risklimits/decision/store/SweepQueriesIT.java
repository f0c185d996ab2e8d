package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.TestInfrastructure;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/** The hold sweep's reads against a real PostgreSQL. */
class SweepQueriesIT {

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final String channel =
            "SWEEP_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();

    @AfterEach
    void deleteTheLedgersWritten() {
        db.update("DELETE FROM risk_authorization_ledger WHERE channel_code = ?", channel);
    }

    @Test
    void theOpenHoldsAreCountedExactlyUpToTheCap() {
        insertHolds("OPEN", "now() + interval '7 days'", 3);
        insertHolds("CAPTURED", "now() + interval '7 days'", 2);
        insertHolds("OPEN", "NULL", 1);

        long open = new SweepQueries(db).openHolds(1_000_000);

        assertThat(open)
                .isEqualTo(db.queryForObject(
                        "SELECT count(*) FROM risk_authorization_ledger WHERE status = 'OPEN' AND expires_at IS NOT NULL",
                        Long.class))
                .isGreaterThanOrEqualTo(3);
    }

    /**
     * Past the cap the count stops: a sweep reads at most that many entries of the expiry index, however
     * many holds are open.
     */
    @Test
    void aCountOfMoreOpenHoldsThanTheCapReadsNoMoreEntriesThanTheCap() throws SQLException {
        insertHolds("OPEN", "now() + interval '7 days'", 5);

        try (Connection connection = TestInfrastructure.get().dataSource().getConnection()) {
            connection.setAutoCommit(false);
            JdbcTemplate inOneTransaction = new JdbcTemplate(new SingleConnectionDataSource(connection, true));

            long open = new SweepQueries(inOneTransaction).openHolds(3);
            long entriesRead = inOneTransaction.queryForObject(
                    "SELECT pg_stat_get_xact_tuples_returned('risk_authorization_ledger_expiry_idx'::regclass)",
                    Long.class);
            connection.rollback();

            assertThat(open).isEqualTo(3);
            assertThat(entriesRead).isLessThanOrEqualTo(3);
        }
    }

    private void insertHolds(String status, String expiresAt, int holds) {
        db.update("""
                INSERT INTO risk_authorization_ledger (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                                       parts, status, expires_at, count_hour)
                SELECT gen_random_uuid(), ?, 'OUT', gen_random_uuid(), date_trunc('hour', localtimestamp), '[]', ?,
                       %s, NULL
                FROM generate_series(1, ?)
                """.formatted(expiresAt), channel, status, holds);
    }
}
