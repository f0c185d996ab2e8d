package io.risklimits.cli;

import io.risklimits.decision.Window;
import io.risklimits.limits.LimitRow;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The CLI's reads and writes of risk_limit: one row per scope (channel, direction, entity) and window. */
final class LimitRows {

    private static final String SELECT_ALL = """
            SELECT channel, direction, entity_id, window_name, max_amount, max_count, updated_at
            FROM risk_limit
            ORDER BY entity_id NULLS FIRST, channel, direction, array_position(ARRAY['24h', '7d', '30d'], window_name)
            """;

    private static final String SELECT_ONE = """
            SELECT channel, direction, entity_id, window_name, max_amount, max_count, updated_at
            FROM risk_limit
            WHERE channel = :channel AND direction = :direction AND window_name = :window
              AND entity_id IS NOT DISTINCT FROM CAST(:entityId AS uuid)
            """;

    // the conflict target is the expression of the unique index risk_limit_scope_idx
    private static final String UPSERT = """
            INSERT INTO risk_limit (channel, direction, entity_id, window_name, max_amount, max_count)
            VALUES (:channel, :direction, CAST(:entityId AS uuid), :window, :maxAmount, :maxCount)
            ON CONFLICT (channel, direction, coalesce(entity_id, '00000000-0000-0000-0000-000000000000'::uuid),
                         window_name)
            DO UPDATE SET max_amount = EXCLUDED.max_amount, max_count = EXCLUDED.max_count, updated_at = now()
            """;

    private static final String DELETE_ONE = """
            DELETE FROM risk_limit
            WHERE channel = :channel AND direction = :direction AND window_name = :window
              AND entity_id IS NOT DISTINCT FROM CAST(:entityId AS uuid)
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

    Optional<Stored> find(String channel, String direction, UUID entityId, Window window) {
        return jdbc.sql(SELECT_ONE)
                .param("channel", channel)
                .param("direction", direction)
                .param("entityId", entityId)
                .param("window", window.label())
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
                .update();
    }

    boolean delete(String channel, String direction, UUID entityId, Window window) {
        return jdbc.sql(DELETE_ONE)
                        .param("channel", channel)
                        .param("direction", direction)
                        .param("entityId", entityId)
                        .param("window", window.label())
                        .update()
                == 1;
    }

    private static Stored stored(ResultSet rs, int rowNum) throws SQLException {
        LimitRow row = new LimitRow(
                rs.getString("channel"),
                rs.getString("direction"),
                rs.getObject("entity_id", UUID.class),
                Window.fromLabel(rs.getString("window_name")),
                rs.getLong("max_amount"),
                rs.getLong("max_count"));
        return new Stored(row, rs.getObject("updated_at", OffsetDateTime.class));
    }
}
