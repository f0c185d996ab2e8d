package io.risklimits.backtest;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.hold.HoldTerms;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Reads the audit log for a backtest, in one streaming query over one snapshot: every authorization,
 * follow-up and expiry decided before the period's end, of the keys that have one inside the period, key by
 * key in the order they were decided. Only one key's rows are held at a time.
 *
 * <p>It runs against a live database without holding up the decider: one READ ONLY transaction at
 * REPEATABLE READ, whose SELECT takes only the ACCESS SHARE lock every reader takes (no row locks, no
 * advisory locks), read through a server-side cursor, so the decider goes on writing both tables.
 */
public final class AuditLogStream {

    /** Rows per round trip of the cursor. */
    static final int FETCH_ROWS = 10_000;

    // the first statement of the transaction, so the whole read sees one snapshot
    private static final String ONE_SNAPSHOT = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY";

    // bucket_hour: the bucket in hours since the epoch; a timestamp without zone is UTC here. amount: what
    // the decision counted, as stored with it (a decision in another currency: its counted_amount, never
    // converted again)
    private static final String SELECT_HISTORIES = """
            WITH period_keys AS (
                SELECT DISTINCT entity_id, channel_code, direction_code
                FROM risk_request_log
                WHERE decided_at >= :from AND decided_at < :to
                  AND decision <> 'INVALID'
            )
            SELECT log.entity_id, log.channel_code, log.direction_code, log.dedupe_id, log.type, log.decision,
                   log.reason, coalesce(log.counted_amount, log.amount) AS amount, log.reverses,
                   log.released_amount, log.released_count,
                   CAST(extract(epoch FROM log.bucket_ts) AS bigint) / 3600 AS bucket_hour,
                   log.decided_at >= :from AS in_period, log.decided_at, log.original, log.hold_expires_at,
                   log.asked_hold_expires_at, log.final, log.captured, log.over_captured
            FROM period_keys
            JOIN risk_request_log AS log USING (entity_id, channel_code, direction_code)
            WHERE log.decided_at < :to
              AND log.decision <> 'INVALID'
            ORDER BY log.entity_id, log.channel_code, log.direction_code, log.decided_at, log.decided_order,
                     log.type = 'EXPIRY'
            """;

    // every key's rows together, in the order they were decided (decided_order: the place in its batch; an
    // expiry that shares its authorization's place comes after it)
    private static final String SELECT_IN_DECISION_ORDER = """
            SELECT log.entity_id, log.channel_code, log.direction_code, log.account_id, log.dedupe_id, log.type,
                   log.decision, log.reason, coalesce(log.counted_amount, log.amount) AS amount, log.reverses,
                   log.released_amount, log.released_count,
                   CAST(extract(epoch FROM log.bucket_ts) AS bigint) / 3600 AS bucket_hour,
                   log.decided_at >= :from AS in_period, log.decided_at, log.original, log.hold_expires_at,
                   log.asked_hold_expires_at, log.final, log.captured, log.over_captured
            FROM risk_request_log AS log
            WHERE log.decided_at < :to
              AND log.decision <> 'INVALID'
            ORDER BY log.decided_at, log.decided_order, log.entity_id, log.channel_code, log.direction_code,
                     log.type = 'EXPIRY'
            """;

    private static final String BUCKET_HOURS = """
            SELECT coalesce(CAST(extract(epoch FROM min(bucket_ts)) AS bigint) / 3600, 0) AS first_hour,
                   coalesce(CAST(extract(epoch FROM max(bucket_ts)) AS bigint) / 3600, 0) AS last_hour
            FROM risk_request_log
            WHERE decided_at < :to
              AND decision <> 'INVALID'
            """;

    private final Connection connection;
    private final HoldTerms holdTerms;

    /**
     * @param connection used for the read, then left in the autocommit mode it had
     * @param holdTerms the decider's (risk.holds): which authorizations the replay holds when it approves one
     *     the log has not
     */
    public AuditLogStream(Connection connection, HoldTerms holdTerms) {
        this.connection = connection;
        this.holdTerms = holdTerms;
    }

    /**
     * Hands each key's history (its rows decided before {@code to}, those from {@code from} on marked
     * in the period) to the consumer, key after key; returns the number of rows read.
     */
    public long read(Instant from, Instant to, Consumer<KeyHistory> histories) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        // a cursor needs a transaction: without one the driver fetches the whole result at once
        connection.setAutoCommit(false);
        try {
            JdbcTemplate jdbc = new JdbcTemplate(new SingleConnectionDataSource(connection, true));
            jdbc.setFetchSize(FETCH_ROWS);
            jdbc.execute(ONE_SNAPSHOT);
            KeyGrouping grouping = new KeyGrouping(histories, holdTerms);
            new NamedParameterJdbcTemplate(jdbc)
                    .query(SELECT_HISTORIES, Map.of("from", utc(from), "to", utc(to)), grouping);
            grouping.finish();
            return grouping.rowsRead();
        } finally {
            // read only: nothing to keep
            connection.rollback();
            connection.setAutoCommit(autoCommit);
        }
    }

    /**
     * Replays every row decided before {@code to}, of every key, in the order they were decided, those
     * from {@code from} on decided again: keys that share an entity or an account are decided together,
     * as the decider decides them. Holds the state of every limited scope key at once. Returns the
     * number of rows read.
     */
    public long readTogether(Instant from, Instant to, Backtest backtest) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            JdbcTemplate jdbc = new JdbcTemplate(new SingleConnectionDataSource(connection, true));
            jdbc.setFetchSize(FETCH_ROWS);
            jdbc.execute(ONE_SNAPSHOT);
            NamedParameterJdbcTemplate named = new NamedParameterJdbcTemplate(jdbc);
            Map<String, OffsetDateTime> period = Map.of("from", utc(from), "to", utc(to));
            ScopedReplay replay = named.queryForObject(
                    BUCKET_HOURS,
                    period,
                    (rs, rowNum) -> backtest.replayTogether(rs.getLong("first_hour"), rs.getLong("last_hour")));
            long[] rowsRead = {0};
            named.query(SELECT_IN_DECISION_ORDER, period, rs -> {
                replay.replay(new ScopedRow(
                        new BusinessKey(
                                rs.getObject("entity_id", UUID.class),
                                rs.getString("channel_code"),
                                Direction.valueOf(rs.getString("direction_code"))),
                        rs.getObject("account_id", UUID.class),
                        KeyGrouping.row(rs, holdTerms)));
                rowsRead[0]++;
            });
            backtest.add(replay.reports());
            return rowsRead[0];
        } finally {
            connection.rollback();
            connection.setAutoCommit(autoCommit);
        }
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
