package io.risklimits.bench;

import java.sql.Statement;
import java.util.List;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A bulk load of the bucket tables as bulk loads are done: without their secondary indexes (the
 * archiver's, which lead with the bucket hour), dropped before it and built again after it from their own
 * definitions, as they were; and without autovacuum visiting the tables in the middle of it, which settle()
 * does after it. Millions of history rows put into such an index one by one land at random places in it,
 * where one sorted build of the whole index is several times cheaper; and a vacuum of millions of rows
 * started between two loads takes a core from the next. The primary keys stay: the loads read them. Only
 * while nothing else uses the tables.
 */
final class BucketTablesBulkLoad {

    static final List<String> TABLES = List.of("risk_hourly_chunk", "risk_scope_hourly_chunk");

    // the bucket tables' indexes that are neither the primary key nor unique, with the statement that builds each
    private static final String SECONDARY_INDEXES = """
            SELECT CAST(index.indexrelid AS regclass)::text AS name, pg_get_indexdef(index.indexrelid) AS definition
            FROM pg_index index
            WHERE index.indrelid IN (CAST('risk_hourly_chunk' AS regclass), CAST('risk_scope_hourly_chunk' AS regclass))
              AND NOT index.indisprimary AND NOT index.indisunique
            ORDER BY 1
            """;

    record Index(String name, String definition) {}

    private final JdbcTemplate jdbc;

    BucketTablesBulkLoad(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
    }

    List<Index> secondaryIndexes() {
        return jdbc.query(SECONDARY_INDEXES, (rs, row) -> new Index(rs.getString("name"), rs.getString("definition")));
    }

    /** The table's storage parameters as set (ALTER TABLE ... SET), each as name=value; none: empty. */
    List<String> storageParameters(String table) {
        return jdbc.queryForList(
                "SELECT unnest(coalesce(reloptions, '{}')) FROM pg_class WHERE oid = CAST(? AS regclass)",
                String.class,
                table);
    }

    /**
     * Runs the load with the secondary indexes dropped and autovacuum off for the bucket tables, and
     * puts both back as they were, even after a load that failed.
     */
    <T> T run(Supplier<T> load) {
        List<Index> indexes = secondaryIndexes();
        List<List<String>> parameters =
                TABLES.stream().map(this::storageParameters).toList();
        TABLES.forEach(table -> jdbc.execute("ALTER TABLE " + table + " SET (autovacuum_enabled = false)"));
        indexes.forEach(index -> jdbc.execute("DROP INDEX " + index.name()));
        try {
            return load.get();
        } finally {
            long startedNanos = System.nanoTime();
            buildAgain(indexes);
            for (int i = 0; i < TABLES.size(); i++) {
                restoreAutovacuum(TABLES.get(i), parameters.get(i));
            }
            System.out.printf(
                    "Benchmark: the bucket tables' secondary indexes (%s) built after the load in %.1f s%n",
                    String.join(", ", indexes.stream().map(Index::name).toList()),
                    (System.nanoTime() - startedNanos) / 1e9);
        }
    }

    private void buildAgain(List<Index> indexes) {
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
    }

    private void restoreAutovacuum(String table, List<String> parameters) {
        String before = parameters.stream()
                .filter(parameter -> parameter.startsWith("autovacuum_enabled="))
                .findFirst()
                .orElse(null);
        jdbc.execute(
                before == null
                        ? "ALTER TABLE " + table + " RESET (autovacuum_enabled)"
                        : "ALTER TABLE " + table + " SET (" + before + ")");
    }
}
