package io.risklimits.support;

import io.risklimits.local.LocalKafkaBroker;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.util.FileSystemUtils;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * One real PostgreSQL server and one real Kafka broker for the whole test run. With a Docker engine
 * they are Testcontainers; without one, embedded PostgreSQL binaries and an in-process KRaft broker.
 * Force either with -Drisk.test.infrastructure=containers or =embedded (default: auto).
 */
public final class TestInfrastructure {

    private static TestInfrastructure instance;

    private final String jdbcUrl;
    private final String username;
    private final String password;
    private final String bootstrapServers;
    private final String description;

    private TestInfrastructure(
            String jdbcUrl, String username, String password, String bootstrapServers, String description) {
        this.jdbcUrl = jdbcUrl;
        this.username = username;
        this.password = password;
        this.bootstrapServers = bootstrapServers;
        this.description = description;
    }

    public static synchronized TestInfrastructure get() {
        if (instance == null) {
            instance = useContainers() ? startContainers() : startEmbedded();
            System.out.println("Test infrastructure: " + instance.description);
            // tests prepare rows before any service (which migrates too) has started
            Flyway.configure().dataSource(instance.dataSource()).load().migrate();
        }
        return instance;
    }

    private static boolean useContainers() {
        String choice = System.getProperty("risk.test.infrastructure", "auto");
        return switch (choice) {
            case "containers" -> true;
            case "embedded" -> false;
            case "auto" -> DockerClientFactory.instance().isDockerAvailable();
            default ->
                throw new IllegalArgumentException(
                        "risk.test.infrastructure must be auto, containers or embedded, not " + choice);
        };
    }

    @SuppressWarnings("resource") // they live as long as the test JVM
    private static TestInfrastructure startContainers() {
        PostgreSQLContainer postgres = new PostgreSQLContainer("postgres:17");
        KafkaContainer kafka = new KafkaContainer("apache/kafka:4.2.1");
        postgres.start();
        kafka.start();
        return new TestInfrastructure(
                postgres.getJdbcUrl(),
                postgres.getUsername(),
                postgres.getPassword(),
                kafka.getBootstrapServers(),
                "Testcontainers (postgres:17, apache/kafka:4.2.1)");
    }

    private static TestInfrastructure startEmbedded() {
        try {
            String sharedBuffers = System.getProperty("risk.test.postgres.shared-buffers", "1GB");
            if (Boolean.getBoolean("risk.test.postgres.reserve-huge-pages")) {
                // the benchmark's: its server as a production server of this size runs (HugePages)
                System.out.println("Test infrastructure: huge pages for PostgreSQL's shared memory: "
                        + HugePages.reserveFor(bytes(sharedBuffers)));
            }
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    // PostgreSQL's 128 MB default is a toy setting; the benchmark's 30 days of history need more
                    .setServerConfig("shared_buffers", sharedBuffers)
                    // zonky starts the server with -F (fsync off): fine for tests, but the benchmark turns it on
                    // (-Drisk.test.postgres.fsync=on, pom's benchmark profile), as on any production server,
                    // so that each mode pays for the commits it makes
                    .setServerConfig("fsync", System.getProperty("risk.test.postgres.fsync", "off"))
                    // PostgreSQL's defaults (1 GB, 5 min), which the benchmark raises as a write-heavy server
                    // would be set up: at the benchmark's WAL rate they forced a checkpoint every 10-40 s
                    .setServerConfig("max_wal_size", System.getProperty("risk.test.postgres.max-wal-size", "1GB"))
                    .setServerConfig(
                            "checkpoint_timeout", System.getProperty("risk.test.postgres.checkpoint-timeout", "5min"))
                    // the benchmark's -Dbench.statements=true: time spent per statement
                    .setServerConfig(
                            "shared_preload_libraries",
                            Boolean.getBoolean("bench.statements") ? "pg_stat_statements" : "")
                    .setServerConfig(
                            "pg_stat_statements.track_planning", Boolean.getBoolean("bench.statements") ? "on" : "off")
                    .start();
            Optional<Path> logParent = kafkaLogParent();
            Path kafkaLogParent = logParent.orElse(Path.of(System.getProperty("java.io.tmpdir")));
            deleteLeftoverBrokerLogs(kafkaLogParent);
            Path kafkaLogs = Files.createTempDirectory(kafkaLogParent, LeftoverBrokerLogs.PREFIX);
            LocalKafkaBroker kafka = LocalKafkaBroker.start(freePort(), freePort(), kafkaLogs, 12);
            // a test run's topics hold up to two gigabytes (the benchmark's): gone with the JVM, or
            // repeated runs fill the disk
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                kafka.stop();
                deleteQuietly(kafkaLogs);
            }));
            return new TestInfrastructure(
                    postgres.getJdbcUrl("postgres", "postgres"),
                    "postgres",
                    "",
                    kafka.bootstrapServers(),
                    "embedded PostgreSQL and in-process KRaft Kafka (no Docker engine)"
                            + logParent
                                    .map(parent -> ", broker log in " + parent)
                                    .orElse(""));
        } catch (Exception e) {
            throw new IllegalStateException("Could not start the embedded PostgreSQL and Kafka", e);
        }
    }

    /**
     * Where the broker keeps its log, if not in the temporary directory: the benchmark puts it in memory
     * (-Drisk.test.kafka.log-dir=/dev/shm), because the in-process broker stands in for a Kafka cluster
     * on machines of its own, and on the disk PostgreSQL writes its WAL to, the kernel's bursts of
     * writing the broker's log back queue the database's commits behind them.
     */
    private static Optional<Path> kafkaLogParent() {
        String configured = System.getProperty("risk.test.kafka.log-dir", "");
        return configured.isBlank()
                ? Optional.empty()
                : Optional.of(Path.of(configured)).filter(Files::isDirectory);
    }

    private static void deleteLeftoverBrokerLogs(Path parent) {
        try {
            LeftoverBrokerLogs.deleteIn(parent)
                    .forEach(log -> System.out.println(
                            "Test infrastructure: deleted the broker log a killed run left, " + log));
        } catch (IOException e) {
            System.err.println("Could not look for broker logs that killed runs left in " + parent + ": " + e);
        }
    }

    private static void deleteQuietly(Path directory) {
        try {
            FileSystemUtils.deleteRecursively(directory);
        } catch (IOException e) {
            System.err.println("Could not delete " + directory + ": " + e);
        }
    }

    // a size as the server's settings write it: "4GB", "512MB"
    private static long bytes(String size) {
        String digits = size.replaceAll("[^0-9]", "");
        long unit = size.toUpperCase(java.util.Locale.ROOT).endsWith("GB") ? 1L << 30 : 1L << 20;
        return Long.parseLong(digits) * unit;
    }

    private static int freePort() throws IOException {
        return FreePorts.next();
    }

    public String jdbcUrl() {
        return jdbcUrl;
    }

    public String username() {
        return username;
    }

    public String password() {
        return password;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** Which infrastructure this is, for reports. */
    public String description() {
        return description;
    }

    public DataSource dataSource() {
        return new DriverManagerDataSource(jdbcUrl, username, password);
    }
}
