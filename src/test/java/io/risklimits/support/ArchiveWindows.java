package io.risklimits.support;

import java.time.LocalDateTime;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The hours an archive run deletes, as tests of the archiver see them: its cutoff under the test
 * settings' retention, and a range of hours emptied of what earlier tests left there, in every table the
 * archiver deletes from, so that a run's counts of deleted rows are the test's own rows alone.
 */
public final class ArchiveWindows {

    // every table the archiver deletes from (WindowDeleter), each by its bucket_ts
    private static final String[] ARCHIVED_TABLES = {
        "risk_request_log",
        "risk_keyless_request_log",
        "risk_authorization_ledger",
        "risk_hourly_agg",
        "risk_scope_hourly_agg"
    };

    private ArchiveWindows() {}

    /** The archiver's cutoff now, under the test settings' retention of 32 days: a UTC hour. */
    public static LocalDateTime cutoff(JdbcTemplate db) {
        return db.queryForObject(
                "SELECT date_trunc('hour', (now() AT TIME ZONE 'UTC') - interval '32 days')", LocalDateTime.class);
    }

    /** Deletes the rows of every archived table whose bucket_ts is in [from, to). */
    public static void clear(JdbcTemplate db, LocalDateTime from, LocalDateTime to) {
        for (String table : ARCHIVED_TABLES) {
            db.update("DELETE FROM " + table + " WHERE bucket_ts >= ? AND bucket_ts < ?", from, to);
        }
    }

    /** Deletes the rows of every archived table whose bucket_ts is before {@code to}. */
    public static void clearBefore(JdbcTemplate db, LocalDateTime to) {
        for (String table : ARCHIVED_TABLES) {
            db.update("DELETE FROM " + table + " WHERE bucket_ts < ?", to);
        }
    }
}
