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

/** The CLI's reads and writes of risk_limit: one row per scope (channel, direction, entity), window and mode. */
final class LimitRows {

    private static final String SELECT_ALL = """
            SELECT channel, direction, entity_id, window_name, max_amount, max_count, mode, updated_at
            FROM risk_limit
            ORDER BY entity_id NULLS FIRST, channel, direction, mode,
                     array_position(ARRAY['txn', '24h', '7d', '30d', 'day', 'week', 'month'], window_name)
            """;

    private static final String SELECT_ONE = """
            SELECT channel, direction, entity_id, window_name, max_amount, max_count, mode, updated_at
            FROM risk_limit
            WHERE channel = :channel AND direction = :direction AND window_name = :window AND mode = :mode
              AND entity_id IS NOT DISTINCT FROM CAST(:entityId AS uuid)
            """;

    // the conflict target is the expression of the unique index risk_limit_scope_idx
    private static final String UPSERT = """
            INSERT INTO risk_limit (channel, direction, entity_id, window_name, max_amount, max_count, mode)
            VALUES (:channel, :direction, CAST(:entityId AS uuid), :window, :maxAmount, :maxCount, :mode)
            ON CONFLICT (channel, direction, coalesce(entity_id, '00000000-0000-0000-0000-000000000000'::uuid),
                         window_name, mode)
            DO UPDATE SET max_amount = EXCLUDED.max_amount, max_count = EXCLUDED.max_count, updated_at = now()
            """;

    private static final String DELETE_ONE = """
            DELETE FROM risk_limit
            WHERE channel = :channel AND direction = :direction AND window_name = :window AND mode = :mode
              AND entity_id IS NOT DISTINCT FROM CAST(:entityId AS uuid)
            """;

    // One statement, so one transaction: the scope's shadow rows are deleted and each becomes the
    // scope's enforced row of its window (replacing the one there was); the scope's other enforced rows
    // stay. Returns the windows promoted.
    private static final String PROMOTE = """
            WITH promoted AS (
                DELETE FROM risk_limit
                WHERE channel = :channel AND direction = :direction AND mode = 'shadow'
                  AND entity_id IS NOT DISTINCT FROM CAST(:entityId AS uuid)
                RETURNING channel, direction, entity_id, window_name, max_amount, max_count)
            INSERT INTO risk_limit (channel, direction, entity_id, window_name, max_amount, max_count, mode)
            SELECT channel, direction, entity_id, window_name, max_amount, max_count, 'enforce'
            FROM promoted
            ON CONFLICT (channel, direction, coalesce(entity_id, '00000000-0000-0000-0000-000000000000'::uuid),
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

    /** The stored row of the given row's scope, window and mode, if any. */
    Optional<Stored> find(LimitRow row) {
        return jdbc.sql(SELECT_ONE)
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
                .param("channel", row.channel())
                .param("direction", row.direction())
                .param("entityId", row.entityId())
                .param("window", row.window().label())
                .param("maxAmount", row.maxAmount())
                .param("maxCount", row.maxCount())
                .param("mode", row.mode().label())
                .update();
    }

    /** Deletes the row of the given row's scope, window and mode; whether there was one. */
    boolean delete(LimitRow row) {
        return jdbc.sql(DELETE_ONE)
                        .param("channel", row.channel())
                        .param("direction", row.direction())
                        .param("entityId", row.entityId())
                        .param("window", row.window().label())
                        .param("mode", row.mode().label())
                        .update()
                == 1;
    }

    /** Turns the scope's shadow rows into its enforced rows; the windows promoted, none without shadow rows. */
    List<Window> promote(LimitScope scope) {
        return jdbc.sql(PROMOTE)
                .param("channel", scope.channel)
                .param("direction", scope.direction)
                .param("entityId", scope.entityId)
                .query((rs, rowNum) -> Window.fromLabel(rs.getString("window_name")))
                .list();
    }

    private static Stored stored(ResultSet rs, int rowNum) throws SQLException {
        return new Stored(LimitRowMapper.INSTANCE.mapRow(rs, rowNum), rs.getObject("updated_at", OffsetDateTime.class));
    }
}
