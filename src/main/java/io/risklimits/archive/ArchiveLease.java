package io.risklimits.archive;

import java.time.Duration;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The single-archiver lease (risk_archive_lease): taken when free or expired, renewed every window,
 * released at the end. Each statement is its own short transaction, so it works behind PgBouncer
 * in transaction mode, where a session advisory lock would not.
 */
@Repository
class ArchiveLease {

    private static final String ACQUIRE = """
            INSERT INTO risk_archive_lease (holder, expires_at)
            VALUES (:holder, clock_timestamp() + make_interval(secs => :seconds))
            ON CONFLICT (singleton) DO UPDATE
                SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
                WHERE risk_archive_lease.expires_at < clock_timestamp()
            """;

    private static final String RENEW = """
            UPDATE risk_archive_lease SET expires_at = clock_timestamp() + make_interval(secs => :seconds)
            WHERE holder = :holder
            """;

    private final JdbcClient jdbc;
    private final Duration length;

    ArchiveLease(JdbcClient jdbc, ArchiverProperties properties) {
        this.jdbc = jdbc;
        this.length = properties.lease();
    }

    /** True when this holder now has the lease; false when another run holds it. */
    boolean acquire(UUID holder) {
        return jdbc.sql(ACQUIRE)
                        .param("holder", holder)
                        .param("seconds", length.toSeconds())
                        .update()
                == 1;
    }

    /** False when the lease was lost (expired and taken by another run): this run must stop. */
    boolean renew(UUID holder) {
        return jdbc.sql(RENEW)
                        .param("holder", holder)
                        .param("seconds", length.toSeconds())
                        .update()
                == 1;
    }

    void release(UUID holder) {
        jdbc.sql("DELETE FROM risk_archive_lease WHERE holder = :holder")
                .param("holder", holder)
                .update();
    }
}
