package io.risklimits.support;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.server.util.FileLock;
import org.springframework.util.FileSystemUtils;

/**
 * The in-process brokers' logs that killed runs left behind. A run deletes its broker's log when its
 * JVM ends, but a killed one (SIGKILL, the OOM killer, a CI timeout) cannot, and the benchmark keeps
 * its log in /dev/shm, where a log left there holds a gigabyte or two of memory until the machine
 * restarts. A log is left over when no process holds the locks that the broker and its controller take
 * on their directories ({@code .lock}), and it is older than a broker takes to start: a run starting
 * beside this one has created its directory before its broker locks it.
 */
final class LeftoverBrokerLogs {

    static final String PREFIX = "risk-limits-kafka";

    private static final Duration BROKER_START = Duration.ofMinutes(2);

    private LeftoverBrokerLogs() {}

    /**
     * Deletes the left-over logs in this directory; returns those deleted. A log that cannot be looked
     * into (another user's, on a shared machine) is left alone.
     */
    static List<Path> deleteIn(Path parent) throws IOException {
        Instant changedBefore = Instant.now().minus(BROKER_START);
        List<Path> deleted = new ArrayList<>();
        try (DirectoryStream<Path> logs = Files.newDirectoryStream(parent, PREFIX + "*")) {
            for (Path log : logs) {
                try {
                    if (Files.isDirectory(log, LinkOption.NOFOLLOW_LINKS)
                            && Files.getLastModifiedTime(log).toInstant().isBefore(changedBefore)
                            && !lockedByAnyProcess(log)) {
                        FileSystemUtils.deleteRecursively(log);
                        deleted.add(log);
                    }
                } catch (IOException notOurs) {
                    // left alone
                }
            }
        }
        return deleted;
    }

    private static boolean lockedByAnyProcess(Path log) throws IOException {
        List<Path> lockFiles;
        try (Stream<Path> files = Files.walk(log, 2)) {
            lockFiles = files.filter(file -> file.getFileName().toString().equals(".lock"))
                    .toList();
        }
        for (Path lockFile : lockFiles) {
            if (locked(lockFile)) {
                return true;
            }
        }
        return false;
    }

    // with the broker's own lock class, which fails to lock while another process, or this JVM, holds it
    private static boolean locked(Path lockFile) throws IOException {
        FileLock lock = new FileLock(lockFile.toFile());
        try {
            return !lock.tryLock();
        } finally {
            lock.unlockAndClose();
        }
    }
}
