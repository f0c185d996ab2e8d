package io.risklimits.cli;

import io.risklimits.archive.ArchiveCursor;
import io.risklimits.decision.Window;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/** What the archiver has done and has left to do, read from its tables and the database clock. */
final class ArchiveStatusQueries {

    private static final String CURSOR = "SELECT cursor_ts, updated_at FROM risk_archive_cursor";

    // exact counts: each is a range scan of an archive index, (bucket_ts, key_hash) or for the buckets in
    // chunks (V13) (first_ts, key_hash), which holds only the backlog and the chunks that begin in it
    private static final String BACKLOG = """
            SELECT (SELECT count(*)
                    FROM risk_hourly_chunk chunk
                    CROSS JOIN LATERAL unnest(chunk.hours) AS bucket (hour)
                    WHERE chunk.first_ts < :cutoff AND risk_hour_ts(bucket.hour) < :cutoff)
                   + (SELECT count(*)
                      FROM risk_scope_hourly_chunk chunk
                      CROSS JOIN LATERAL unnest(chunk.hours) AS bucket (hour)
                      WHERE chunk.first_ts < :cutoff AND risk_hour_ts(bucket.hour) < :cutoff) AS agg_rows,
                   (SELECT count(*) FROM risk_request_log WHERE bucket_ts < :cutoff) AS log_rows,
                   (SELECT count(*) FROM risk_keyless_request_log WHERE bucket_ts < :cutoff) AS keyless_rows,
                   least((SELECT min(first_ts) FROM risk_hourly_chunk),
                         (SELECT min(first_ts) FROM risk_scope_hourly_chunk),
                         (SELECT min(bucket_ts) FROM risk_request_log),
                         (SELECT min(bucket_ts) FROM risk_keyless_request_log)) AS oldest_bucket
            """;

    private static final String LEASE = """
            SELECT holder, expires_at, expires_at > clock_timestamp() AS held FROM risk_archive_lease
            """;

    private static final String LAST_COMMANDS = """
            SELECT command_id, status, started_at, finished_at,
                   result ->> 'dry_run' AS dry_run,
                   result ->> 'deleted_agg_rows' AS deleted_agg_rows,
                   result ->> 'deleted_log_rows' AS deleted_log_rows,
                   result ->> 'cursor_to' AS cursor_to,
                   result ->> 'error' AS error
            FROM risk_archive_command
            ORDER BY started_at DESC
            LIMIT :limit
            """;

    record Cursor(LocalDateTime cursorTs, Instant updatedAt) {}

    record Backlog(long aggRows, long logRows, long keylessRows, LocalDateTime oldestBucket) {}

    record Lease(UUID holder, Instant expiresAt, boolean held) {}

    record CommandRun(
            UUID commandId,
            String status,
            Instant startedAt,
            Instant finishedAt,
            String dryRun,
            String deletedAggRows,
            String deletedLogRows,
            String cursorTo,
            String error) {}

    private final JdbcClient jdbc;

    ArchiveStatusQueries(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The archiver's own cutoff: the same clock, the same truncation. */
    List<Window> windowsInUse() {
        return jdbc.sql("SELECT DISTINCT window_name FROM risk_limit")
                .query((rs, rowNum) -> Window.fromLabel(rs.getString("window_name")))
                .list();
    }

    LocalDateTime cutoff(Duration retention) {
        return new ArchiveCursor(jdbc).cutoff(retention);
    }

    Optional<Cursor> cursor() {
        return jdbc.sql(CURSOR)
                .query((rs, rowNum) ->
                        new Cursor(rs.getObject("cursor_ts", LocalDateTime.class), instant(rs, "updated_at")))
                .optional();
    }

    Backlog backlog(LocalDateTime cutoff) {
        return jdbc.sql(BACKLOG)
                .param("cutoff", cutoff)
                .query((rs, rowNum) -> new Backlog(
                        rs.getLong("agg_rows"),
                        rs.getLong("log_rows"),
                        rs.getLong("keyless_rows"),
                        rs.getObject("oldest_bucket", LocalDateTime.class)))
                .single();
    }

    Optional<Lease> lease() {
        return jdbc.sql(LEASE)
                .query((rs, rowNum) ->
                        new Lease(rs.getObject("holder", UUID.class), instant(rs, "expires_at"), rs.getBoolean("held")))
                .optional();
    }

    List<CommandRun> lastCommands(int limit) {
        return jdbc.sql(LAST_COMMANDS)
                .param("limit", limit)
                .query((rs, rowNum) -> new CommandRun(
                        rs.getObject("command_id", UUID.class),
                        rs.getString("status"),
                        instant(rs, "started_at"),
                        instant(rs, "finished_at"),
                        rs.getString("dry_run"),
                        rs.getString("deleted_agg_rows"),
                        rs.getString("deleted_log_rows"),
                        rs.getString("cursor_to"),
                        rs.getString("error")))
                .list();
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
