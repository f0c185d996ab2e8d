package io.risklimits.faults;

import io.risklimits.local.LocalKafkaBroker;
import io.risklimits.support.FreePorts;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import javax.sql.DataSource;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The fault suite's own PostgreSQL server and Kafka broker, separate from the other tests' because
 * the suite stops and restarts them. Both keep their data and ports across a restart, as a real
 * server does; the workers connect to them from their own processes.
 */
final class FaultCluster implements AutoCloseable {

    private final Path home;
    private final int postgresPort;
    private final int kafkaPort;
    private final int controllerPort;
    private EmbeddedPostgres postgres;
    private LocalKafkaBroker kafka;
    private PgBouncer bouncer;

    private FaultCluster(Path home) throws IOException {
        this.home = home;
        this.postgresPort = freePort();
        this.kafkaPort = freePort();
        this.controllerPort = freePort();
    }

    static FaultCluster start(Path home) throws Exception {
        Files.createDirectories(home);
        FaultCluster cluster = new FaultCluster(home);
        cluster.startPostgres();
        cluster.startKafka();
        Flyway.configure().dataSource(cluster.dataSource()).load().migrate();
        return cluster;
    }

    private void startPostgres() throws IOException {
        postgres = EmbeddedPostgres.builder()
                .setPort(postgresPort)
                .setDataDirectory(home.resolve("postgres"))
                .setCleanDataDirectory(false)
                .setServerConfig("max_connections", "300")
                .start();
    }

    private void startKafka() throws Exception {
        kafka = LocalKafkaBroker.start(kafkaPort, controllerPort, home.resolve("kafka"), 12);
    }

    String jdbcUrl() {
        return "jdbc:postgresql://localhost:" + postgresPort + "/postgres";
    }

    int postgresPort() {
        return postgresPort;
    }

    String bootstrapServers() {
        return "localhost:" + kafkaPort;
    }

    Path home() {
        return home;
    }

    DataSource dataSource() {
        return new DriverManagerDataSource(jdbcUrl(), "postgres", "");
    }

    JdbcTemplate jdbc() {
        return new JdbcTemplate(dataSource());
    }

    Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()));
    }

    /** Stops PostgreSQL (fast shutdown: open transactions are rolled back); see {@link #resumePostgres}. */
    void stopPostgres() throws IOException {
        postgres.close();
    }

    void resumePostgres() throws IOException {
        startPostgres();
    }

    void stopKafka() {
        kafka.stop();
    }

    void resumeKafka() throws Exception {
        startKafka();
    }

    /** Ends every client backend but the caller's, as an operator's pg_terminate_backend would. */
    int terminateBackends() {
        Integer terminated = jdbc().queryForObject("""
                SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))
                FROM pg_stat_activity
                WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()
                """, Integer.class);
        return terminated == null ? 0 : terminated;
    }

    synchronized PgBouncer pgBouncer() throws Exception {
        if (bouncer == null) {
            bouncer = PgBouncer.start(home.resolve("pgbouncer"), postgresPort, freePort());
        }
        return bouncer;
    }

    static int freePort() throws IOException {
        return FreePorts.next();
    }

    @Override
    public void close() throws Exception {
        if (bouncer != null) {
            bouncer.close();
        }
        kafka.stop();
        postgres.close();
    }
}
