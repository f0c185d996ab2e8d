package io.risklimits.bench;

import java.sql.Statement;
import java.util.List;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A bulk load of the bucket tables without their secondary indexes (the archiver's, which lead with
 * the bucket hour): dropped before it, built again after it from their own definitions, as they were.
 * Millions of history rows put into such an index one by one land at random places in it; one sorted
 * build of the whole index is several times cheaper. The primary keys stay: the loads read them. Only
 * while nothing else uses the tables.
 */
final class BucketIndexesSetAside {

    // the bucket tables' indexes that are neither the primary key nor unique, with the statement that builds each
    private static final String SECONDARY_INDEXES = """
            SELECT CAST(index.indexrelid AS regclass)::text AS name, pg_get_indexdef(index.indexrelid) AS definition
            FROM pg_index index
            WHERE index.indrelid IN (CAST('risk_hourly_agg' AS regclass), CAST('risk_scope_hourly_agg' AS regclass))
              AND NOT index.indisprimary AND NOT index.indisunique
            ORDER BY 1
            """;

    record Index(String name, String definition) {}

    private final JdbcTemplate jdbc;

    BucketIndexesSetAside(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
    }

    List<Index> secondaryIndexes() {
        return jdbc.query(SECONDARY_INDEXES, (rs, row) -> new Index(rs.getString("name"), rs.getString("definition")));
    }

    /** Runs the load with the secondary indexes dropped, and builds them again, even after a load that failed. */
    <T> T during(Supplier<T> load) {
        List<Index> indexes = secondaryIndexes();
        indexes.forEach(index -> jdbc.execute("DROP INDEX " + index.name()));
        try {
            return load.get();
        } finally {
            long startedNanos = System.nanoTime();
            jdbc.execute((ConnectionCallback<Void>) connection -> {
                try (Statement statement = connection.createStatement()) {
                    // a sort of millions of entries: in memory, not in temporary files
                    statement.execute("SET maintenance_work_mem = '1GB'");
                    for (Index index : indexes) {
                        statement.execute(index.definition());
                    }
                    statement.execute("RESET maintenance_work_mem");
                }
                return null;
            });
            System.out.printf(
                    "Benchmark: the bucket tables' secondary indexes (%s) built after the load in %.1f s%n",
                    String.join(", ", indexes.stream().map(Index::name).toList()),
                    (System.nanoTime() - startedNanos) / 1e9);
        }
    }
}
