package io.risklimits.cli;

import io.risklimits.decision.Window;
import io.risklimits.limits.LimitRow;
import io.risklimits.limits.LimitRowMapper;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The CLI's reads and writes of risk_limit: one row per row scope (scope, channel, direction, entity or
 * account), window and mode. Every SELECT returns the columns {@link LimitRowMapper} reads.
 */
final class LimitRows {

    private static final String SELECT_ALL = """
            SELECT scope, channel, direction, entity_id, account_id, window_name, max_amount, max_count, mode,
                   updated_at
            FROM risk_limit
            ORDER BY array_position(ARRAY['key', 'entity', 'account_channel', 'account'], scope),
                     entity_id NULLS FIRST, account_id NULLS FIRST, channel, direction, mode,
                     array_position(ARRAY['txn', '24h', '7d', '30d', 'day', 'week', 'month'], window_name)
            """;

    private static final String SELECT_ONE = """
            SELECT scope, channel, direction, entity_id, account_id, window_name, max_amount, max_count, mode,
                   updated_at
            FROM risk_limit
            WHERE scope = :scope AND channel = :channel AND direction = :direction
              AND window_name = :window AND mode = :mode
              AND entity_id IS NOT DISTINCT FROM CAST(:entityId AS uuid)
              AND account_id IS NOT DISTINCT FROM CAST(:accountId AS uuid)
            """;

    // the conflict target is the expression of the unique index risk_limit_scope_idx
    private static final String UPSERT = """
            INSERT INTO risk_limit (scope, channel, direction, entity_id, account_id, window_name,
                                    max_amount, max_count, mode)
            VALUES (:scope, :channel, :direction, CAST(:entityId AS uuid), CAST(:accountId AS uuid), :window,
                    :maxAmount, :maxCount, :mode)
            ON CONFLICT (scope, channel, direction,
                         coalesce(entity_id, '00000000-0000-0000-0000-000000000000'::uuid),
                         coalesce(account_id, '00000000-0000-0000-0000-000000000000'::uuid),
                         window_name, mode)
            DO UPDATE SET max_amount = EXCLUDED.max_amount, max_count = EXCLUDED.max_count, updated_at = now()
            """;

    private static final String DELETE_ONE = """
            DELETE FROM risk_limit
            WHERE scope = :scope AND channel = :channel AND direction = :direction
              AND window_name = :window AND mode = :mode
              AND entity_id IS NOT DISTINCT FROM CAST(:entityId AS uuid)
              AND account_id IS NOT DISTINCT FROM CAST(:accountId AS uuid)
            """;

    // One statement, so one transaction: the row scope's shadow rows are deleted and each becomes its
    // enforced row of its window (replacing the one there was); its other enforced rows, and the rows of
    // every other row scope, stay. Returns the windows promoted.
    private static final String PROMOTE = """
            WITH promoted AS (
                DELETE FROM risk_limit
                WHERE scope = :scope AND channel = :channel AND direction = :direction AND mode = 'shadow'
                  AND entity_id IS NOT DISTINCT FROM CAST(:entityId AS uuid)
                  AND account_id IS NOT DISTINCT FROM CAST(:accountId AS uuid)
                RETURNING scope, channel, direction, entity_id, account_id, window_name, max_amount, max_count)
            INSERT INTO risk_limit (scope, channel, direction, entity_id, account_id, window_name,
                                    max_amount, max_count, mode)
            SELECT scope, channel, direction, entity_id, account_id, window_name, max_amount, max_count, 'enforce'
            FROM promoted
            ON CONFLICT (scope, channel, direction,
                         coalesce(entity_id, '00000000-0000-0000-0000-000000000000'::uuid),
                         coalesce(account_id, '00000000-0000-0000-0000-000000000000'::uuid),
                         window_name, mode)
            DO UPDATE SET max_amount = EXCLUDED.max_amount, max_count = EXCLUDED.max_count, updated_at = now()
            RETURNING window_name
            """;

    private final JdbcClient jdbc;

    LimitRows(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** A row as stored, with when it last changed. */
    record Stored(LimitRow row, OffsetDateTime updatedAt) {}

    List<Stored> all() {
        return jdbc.sql(SELECT_ALL).query(LimitRows::stored).list();
    }

    /** The stored row of the given row's row scope, window and mode, if any. */
    Optional<Stored> find(LimitRow row) {
        return jdbc.sql(SELECT_ONE)
                .param("scope", row.scope().label())
                .param("accountId", row.accountId())
                .param("channel", row.channel())
                .param("direction", row.direction())
                .param("entityId", row.entityId())
                .param("window", row.window().label())
                .param("mode", row.mode().label())
                .query(LimitRows::stored)
                .optional();
    }

    void upsert(LimitRow row) {
        jdbc.sql(UPSERT)
                .param("scope", row.scope().label())
                .param("accountId", row.accountId())
                .param("channel", row.channel())
                .param("direction", row.direction())
                .param("entityId", row.entityId())
                .param("window", row.window().label())
                .param("maxAmount", row.maxAmount())
                .param("maxCount", row.maxCount())
                .param("mode", row.mode().label())
                .update();
    }

    /** Deletes the row of the given row's row scope, window and mode; whether there was one. */
    boolean delete(LimitRow row) {
        return jdbc.sql(DELETE_ONE)
                        .param("scope", row.scope().label())
                        .param("accountId", row.accountId())
                        .param("channel", row.channel())
                        .param("direction", row.direction())
                        .param("entityId", row.entityId())
                        .param("window", row.window().label())
                        .param("mode", row.mode().label())
                        .update()
                == 1;
    }

    /** Turns the row scope's shadow rows into its enforced rows; the windows promoted, none without shadow rows. */
    List<Window> promote(RowScope scope) {
        return jdbc.sql(PROMOTE)
                .param("scope", scope.scope().label())
                .param("channel", scope.channel())
                .param("direction", scope.direction())
                .param("entityId", scope.entityId())
                .param("accountId", scope.accountId())
                .query((rs, rowNum) -> Window.fromLabel(rs.getString("window_name")))
                .list();
    }

    private static Stored stored(ResultSet rs, int rowNum) throws SQLException {
        return new Stored(LimitRowMapper.INSTANCE.mapRow(rs, rowNum), rs.getObject("updated_at", OffsetDateTime.class));
    }
}
