package io.risklimits.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.apache.kafka.server.util.FileLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LeftoverBrokerLogsTest {

    @TempDir
    Path parent;

    @Test
    void aLogNoProcessHoldsIsDeleted() throws IOException {
        Path log = brokerLog("risk-limits-kafka1", Duration.ofHours(1));

        assertThat(LeftoverBrokerLogs.deleteIn(parent)).containsExactly(log);
        assertThat(log).doesNotExist();
    }

    @Test
    void aLogWhoseLockAnotherProcessHoldsIsKept() throws Exception {
        Path log = brokerLog("risk-limits-kafka2", Duration.ofHours(1));
        Process holder = holdLock(log.resolve("logs").resolve(".lock"));
        try {
            assertThat(LeftoverBrokerLogs.deleteIn(parent)).isEmpty();
            assertThat(log.resolve("logs").resolve("risk.transactions-0")).exists();
        } finally {
            holder.destroy();
            holder.waitFor();
        }
        // and once that process has ended, it is left over
        assertThat(LeftoverBrokerLogs.deleteIn(parent)).containsExactly(log);
    }

    @Test
    void aLogYoungerThanABrokerTakesToStartIsKept() throws IOException {
        Path starting = parent.resolve("risk-limits-kafka3");
        Files.createDirectories(starting);

        assertThat(LeftoverBrokerLogs.deleteIn(parent)).isEmpty();
        assertThat(starting).exists();
    }

    @Test
    void otherDirectoriesAreLeftAlone() throws IOException {
        Path other = brokerLog("risk-limits-faults4", Duration.ofHours(1));

        assertThat(LeftoverBrokerLogs.deleteIn(parent)).isEmpty();
        assertThat(other).exists();
    }

    /** A log as LocalKafkaBroker lays it out, its directory last changed this long ago. */
    private Path brokerLog(String name, Duration age) throws IOException {
        Path log = parent.resolve(name);
        Files.createDirectories(log.resolve("metadata"));
        Files.createDirectories(log.resolve("logs").resolve("risk.transactions-0"));
        Files.createFile(log.resolve("metadata").resolve(".lock"));
        Files.createFile(log.resolve("logs").resolve(".lock"));
        Files.setLastModifiedTime(log, FileTime.from(Instant.now().minus(age)));
        return log;
    }

    /** Another JVM that locks the file with the broker's lock class, and holds it until destroyed. */
    private static Process holdLock(Path lockFile) throws IOException {
        Process holder = new ProcessBuilder(
                        ProcessHandle.current().info().command().orElseThrow(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        LockHolder.class.getName(),
                        lockFile.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        BufferedReader output =
                new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
        assertThat(output.readLine()).isEqualTo("locked");
        return holder;
    }

    static final class LockHolder {
        public static void main(String[] arguments) throws Exception {
            new FileLock(Path.of(arguments[0]).toFile()).lock();
            System.out.println("locked");
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
