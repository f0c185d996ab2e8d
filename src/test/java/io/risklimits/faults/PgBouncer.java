package io.risklimits.faults;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;

/**
 * A real PgBouncer (Debian's pgbouncer package) in transaction pooling mode in front of the suite's
 * PostgreSQL: a server connection is shared between clients from one transaction to the next, so
 * session state (session advisory locks, prepared statements, SET) does not survive a commit.
 */
final class PgBouncer implements AutoCloseable {

    static final Path BINARY = Path.of("/usr/sbin/pgbouncer");

    private final Process process;
    private final int port;

    private PgBouncer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    static PgBouncer start(Path home, int postgresPort, int port) throws IOException {
        Files.createDirectories(home);
        Path users = home.resolve("userlist.txt");
        Files.writeString(users, "\"postgres\" \"\"\n");
        Path config = home.resolve("pgbouncer.ini");
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "[databases]",
                        "postgres = host=127.0.0.1 port=" + postgresPort + " dbname=postgres user=postgres",
                        "[pgbouncer]",
                        "listen_addr = 127.0.0.1",
                        "listen_port = " + port,
                        "unix_socket_dir =",
                        "auth_type = trust",
                        "auth_file = " + users,
                        "pool_mode = transaction",
                        "max_client_conn = 500",
                        "default_pool_size = 20",
                        "ignore_startup_parameters = extra_float_digits,options",
                        ""));
        // PgBouncer refuses to run as root; -u drops to the postgres account the package created,
        // which must be able to reach these files (it logs to stderr, which this process keeps)
        for (Path path : List.of(home.getParent(), home, users, config)) {
            Files.setPosixFilePermissions(
                    path, PosixFilePermissions.fromString(Files.isDirectory(path) ? "rwxr-xr-x" : "rw-r--r--"));
        }
        Process process = new ProcessBuilder(BINARY.toString(), "-u", "postgres", config.toString())
                .redirectErrorStream(true)
                .redirectOutput(home.resolve("pgbouncer.out").toFile())
                .start();
        PgBouncer bouncer = new PgBouncer(process, port);
        Awaitility.await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                return true;
            }
        });
        return bouncer;
    }

    /** PgJDBC through transaction pooling: no server-side prepared statements (prepareThreshold=0). */
    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?prepareThreshold=0";
    }

    @Override
    public void close() {
        process.destroy();
    }
}
