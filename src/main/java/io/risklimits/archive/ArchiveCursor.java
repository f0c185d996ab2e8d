package io.risklimits.archive;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * risk_archive_cursor and the database clock the cutoff is taken from. Timestamps are UTC hours.
 * Public for the operator CLI's archive-status, so both compute the cutoff the same way.
 */
@Repository
public class ArchiveCursor {

    private static final String CUTOFF = """
            SELECT date_trunc('hour', (now() AT TIME ZONE 'UTC') - make_interval(secs => :retentionSeconds))
            """;

    private static final String OLDEST_BUCKET = """
            SELECT least((SELECT min(first_ts) FROM risk_hourly_chunk),
                         (SELECT min(first_ts) FROM risk_scope_hourly_chunk),
                         (SELECT min(bucket_ts) FROM risk_request_log),
                         (SELECT date_trunc('hour', min(bucket_ts)) FROM risk_keyless_request_log))
            """;

    private static final String SET_CURSOR = """
            INSERT INTO risk_archive_cursor (cursor_ts) VALUES (:cursor)
            ON CONFLICT (singleton) DO UPDATE SET cursor_ts = EXCLUDED.cursor_ts, updated_at = clock_timestamp()
            """;

    private final JdbcClient jdbc;

    public ArchiveCursor(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public LocalDateTime cutoff(Duration retention) {
        return jdbc.sql(CUTOFF)
                .param("retentionSeconds", retention.toSeconds())
                .query(LocalDateTime.class)
                .single();
    }

    Optional<LocalDateTime> stored() {
        return jdbc.sql("SELECT cursor_ts FROM risk_archive_cursor")
                .query(LocalDateTime.class)
                .optional();
    }

    /** Where a first run starts: the oldest bucket in any table, if there is any row at all. */
    Optional<LocalDateTime> oldestBucket() {
        return jdbc.sql(OLDEST_BUCKET).query(LocalDateTime.class).optional();
    }

    void advanceTo(LocalDateTime cursor) {
        jdbc.sql(SET_CURSOR).param("cursor", cursor).update();
    }
}
