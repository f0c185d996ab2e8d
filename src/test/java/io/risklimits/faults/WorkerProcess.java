package io.risklimits.faults;

import io.risklimits.support.PackagedJar;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * The service as its own operating-system process, started with java -jar from the packaged jar
 * (target/risk-limits-*.jar) and stopped the way production stops it: SIGTERM, SIGKILL, or
 * SIGSTOP / SIGCONT for a frozen process.
 */
final class WorkerProcess implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final String name;
    private final Process process;
    private final int port;

    private WorkerProcess(String name, Process process, int port) {
        this.name = name;
        this.process = process;
        this.port = port;
    }

    static WorkerProcess start(String name, Path logs, Map<String, String> properties) throws IOException {
        int port = FaultCluster.freePort();
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-Xmx384m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-jar",
                PackagedJar.path().toString(),
                "--server.port=" + port));
        properties.forEach((key, value) -> command.add("--" + key + "=" + value));
        Files.createDirectories(logs);
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        logs.resolve(name + ".log").toFile()))
                .start();
        return new WorkerProcess(name, process, port);
    }

    /** Waits for /actuator/health/readiness to answer UP; fails at once when the process exits. */
    WorkerProcess awaitReady() {
        Awaitility.await(name + " ready")
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .failFast(name + " exited before it was ready (its log says why)", () -> !process.isAlive())
                .ignoreExceptions()
                .until(() -> {
                    HttpResponse<String> response = HTTP.send(
                            HttpRequest.newBuilder(
                                            URI.create("http://localhost:" + port + "/actuator/health/readiness"))
                                    .timeout(Duration.ofSeconds(2))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    return response.statusCode() == 200;
                });
        return this;
    }

    /** GET /actuator/health: the status code and the body (503 when a component is DOWN). */
    HttpResponse<String> health() throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health"))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    String name() {
        return name;
    }

    boolean alive() {
        return process.isAlive();
    }

    /** The exit status once it ended by itself (137 for a failpoint halt). */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException(name + " still running after " + timeout);
        }
        return process.exitValue();
    }

    void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    void terminate() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            kill9();
        }
    }

    void freeze() throws Exception {
        signal("-STOP");
    }

    void thaw() throws Exception {
        signal("-CONT");
    }

    private void signal(String signal) throws Exception {
        new ProcessBuilder("kill", signal, Long.toString(process.pid()))
                .inheritIO()
                .start()
                .waitFor();
    }

    @Override
    public void close() throws Exception {
        if (process.isAlive()) {
            thaw();
            terminate();
        }
    }
}
