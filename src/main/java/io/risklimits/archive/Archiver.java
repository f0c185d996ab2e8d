package io.risklimits.archive;

import io.risklimits.decision.RetentionRule;
import io.risklimits.shared.RiskProperties;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Runs one archive command: cutoff from the database clock and the retention;
 * then window by window from the cursor, [cursor, least(cursor + window, cutoff)), the audit log and
 * the buckets of every scope deleted by the fixed fan-out, and only then the cursor advanced. A crash
 * mid-window leaves the cursor where it was; deletes are idempotent, so the next run simply does the
 * window again.
 */
@Service
class Archiver {

    private static final Logger log = LoggerFactory.getLogger(Archiver.class);

    // when a window's delete runs past risk.archiver.statement-timeout, the run goes on with the
    // next smaller window size, in minutes
    private static final List<Integer> SMALLER_WINDOWS = List.of(60, 30, 15);

    private final ArchiveCursor cursor;
    private final ArchiveLease lease;
    private final ArchiveCommandLog commands;
    private final WindowDeleter deleter;
    private final WindowsInUse windowsInUse;
    private final RiskProperties risk;

    Archiver(
            ArchiveCursor cursor,
            ArchiveLease lease,
            ArchiveCommandLog commands,
            WindowDeleter deleter,
            WindowsInUse windowsInUse,
            RiskProperties risk) {
        this.cursor = cursor;
        this.lease = lease;
        this.commands = commands;
        this.deleter = deleter;
        this.windowsInUse = windowsInUse;
        this.risk = risk;
    }

    ArchiveResult handle(ArchiveCommand command) {
        long started = System.nanoTime();
        Optional<String> earlier = commands.status(command.commandId());
        if (earlier.isPresent() && !earlier.get().equals("RUNNING")) {
            return ArchiveResult.notRun(
                    command.commandId(), ArchiveResult.Status.DUPLICATE, command.dryRun(), null, millisSince(started));
        }
        UUID holder = UUID.randomUUID();
        if (!lease.acquire(holder)) {
            return ArchiveResult.notRun(
                    command.commandId(), ArchiveResult.Status.BUSY, command.dryRun(), null, millisSince(started));
        }
        try {
            commands.start(command.commandId());
            // a limit of a longer window may have been added since start-up: checked before any delete
            Optional<String> retentionTooShort = RetentionRule.shortfall(risk.retention(), windowsInUse.read());
            ArchiveResult result = retentionTooShort.isPresent()
                    ? ArchiveResult.notRun(
                            command.commandId(),
                            ArchiveResult.Status.FAILED,
                            command.dryRun(),
                            retentionTooShort.get(),
                            millisSince(started))
                    : run(command, holder, started);
            commands.finish(result);
            return result;
        } finally {
            lease.release(holder);
        }
    }

    private ArchiveResult run(ArchiveCommand command, UUID holder, long started) {
        LocalDateTime cutoff = cursor.cutoff(risk.retention());
        Optional<LocalDateTime> stored = cursor.stored();
        LocalDateTime from = stored.or(cursor::oldestBucket).orElse(cutoff);
        LocalDateTime position = from;
        int windowMinutes = command.windowMinutes();
        int windows = 0;
        long aggRows = 0;
        long scopeAggRows = 0;
        long logRows = 0;
        String error = null;
        while (position.isBefore(cutoff) && (command.maxWindows() == null || windows < command.maxWindows())) {
            LocalDateTime to = min(position.plusMinutes(windowMinutes), cutoff);
            try {
                WindowDeleter.Deleted deleted = deleter.run(position, to, command.dryRun());
                aggRows += deleted.aggRows();
                scopeAggRows += deleted.scopeAggRows();
                logRows += deleted.logRows();
            } catch (WindowDeleter.WindowTooLarge tooLarge) {
                int tooLargeSize = windowMinutes;
                Optional<Integer> smaller = SMALLER_WINDOWS.stream()
                        .filter(size -> size < tooLargeSize)
                        .findFirst();
                if (smaller.isEmpty()) {
                    error = "a window of " + windowMinutes + " minutes still exceeds the statement timeout";
                    break;
                }
                log.warn(
                        "Archive window {} .. {} exceeded the statement timeout; shrinking it to {} minutes",
                        position,
                        to,
                        smaller.get());
                windowMinutes = smaller.get();
                continue;
            } catch (RuntimeException failure) {
                log.error("Archive command {} failed in window {} .. {}", command.commandId(), position, to, failure);
                error = failure.toString();
                break;
            }
            windows++;
            position = to;
            if (!command.dryRun()) {
                cursor.advanceTo(position); // all three tables are done for the window
                if (!lease.renew(holder)) {
                    error = "the archiver lease expired and was taken by another run";
                    break;
                }
            }
        }
        ArchiveResult.Status status = error != null
                ? ArchiveResult.Status.FAILED
                : position.isBefore(cutoff) ? ArchiveResult.Status.PARTIAL : ArchiveResult.Status.COMPLETED;
        return new ArchiveResult(
                command.commandId(),
                status,
                command.dryRun(),
                cutoff,
                stored.orElse(null),
                // without a window done the cursor is where it was: the start position alone (the oldest
                // bucket, or the cutoff) was never stored
                windows > 0 ? position : stored.orElse(null),
                windows,
                aggRows,
                scopeAggRows,
                logRows,
                millisSince(started),
                error,
                windowMinutes);
    }

    private static LocalDateTime min(LocalDateTime a, LocalDateTime b) {
        return a.isBefore(b) ? a : b;
    }

    private static long millisSince(long started) {
        return (System.nanoTime() - started) / 1_000_000;
    }
}
