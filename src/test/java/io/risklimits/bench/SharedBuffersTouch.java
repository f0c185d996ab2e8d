package io.risklimits.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import javax.sql.DataSource;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.util.FileSystemUtils;

/**
 * Puts the benchmark's server in the state of one that has run for a while: every shared buffer used
 * once. A server fresh from start has its shared_buffers as untouched shared memory, and a page read
 * into a buffer never used before makes the kernel find and zero a page of memory first: a cost a
 * phase that reads many pages from outside shared buffers (the wide key set's) pays on a fresh server
 * and not on a production one. It writes a throwaway unlogged table of one row a page, as many pages
 * as buffers are unused, in a tablespace in memory (no disk writes), reads it into shared buffers
 * (pg_prewarm) and drops it: its buffers go back to the server's free list, used.
 */
final class SharedBuffersTouch {

    private static final String TABLESPACE = "risk_bench_touch";
    private static final String TABLE = "risk_bench_touch";
    // with fillfactor 10 a page keeps 7,372 of its bytes free: one row of more than ~400 bytes fills it
    private static final int ROW_BYTES = 500;

    private final JdbcTemplate jdbc;

    SharedBuffersTouch(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
    }

    /**
     * Touches the unused buffers; returns how many held a page of the table once it was read (counted, not
     * assumed), or a reason it could not (a server in a container).
     */
    String touchUnusedBuffers() {
        Path directory = null;
        long startedNanos = System.nanoTime();
        try {
            jdbc.execute("CREATE EXTENSION IF NOT EXISTS pg_buffercache");
            Long unused =
                    jdbc.queryForObject("SELECT count(*) FROM pg_buffercache WHERE relfilenode IS NULL", Long.class);
            Path dataDirectory = Path.of(jdbc.queryForObject("SHOW data_directory", String.class));
            if (unused == null || unused == 0 || !Files.isDirectory(dataDirectory)) {
                return "not touched: "
                        + (unused == null || unused == 0 ? "no unused buffer" : "server not on this host");
            }
            directory = Files.createTempDirectory(inMemory(), "risk-bench-touch-");
            UserPrincipal serverUser = Files.getOwner(dataDirectory);
            Files.setOwner(directory, serverUser);
            jdbc.execute("CREATE TABLESPACE " + TABLESPACE + " LOCATION '" + directory + "'");
            try {
                // written in bulk (through a small ring of buffers), then read into the buffers page by page
                jdbc.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm");
                jdbc.execute("CREATE UNLOGGED TABLE " + TABLE + " WITH (fillfactor = 10, autovacuum_enabled = false)"
                        + " TABLESPACE " + TABLESPACE + " AS SELECT repeat('x', " + ROW_BYTES + ") AS filler"
                        + " FROM generate_series(1, " + unused + ")");
                jdbc.execute("SELECT pg_prewarm('" + TABLE + "', 'buffer')");
                Long touched = jdbc.queryForObject("""
                        SELECT count(*) FROM pg_buffercache
                        WHERE relfilenode = pg_relation_filenode(CAST(? AS regclass))
                          AND reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
                        """, Long.class, TABLE);
                return "%,d of %,d unused buffers touched in %.1f s"
                        .formatted(touched, unused, (System.nanoTime() - startedNanos) / 1e9);
            } finally {
                jdbc.execute("DROP TABLE IF EXISTS " + TABLE);
                jdbc.execute("DROP TABLESPACE " + TABLESPACE);
            }
        } catch (DataAccessException | IOException | UnsupportedOperationException e) {
            return "not touched: " + e.getMessage();
        } finally {
            deleteQuietly(directory);
        }
    }

    private static Path inMemory() {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    private static void deleteQuietly(Path directory) {
        if (directory == null) {
            return;
        }
        try {
            FileSystemUtils.deleteRecursively(directory);
        } catch (IOException ignored) {
            // a leftover empty directory in memory
        }
    }
}
