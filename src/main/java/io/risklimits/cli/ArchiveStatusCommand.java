package io.risklimits.cli;

import io.risklimits.decision.RetentionRule;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(
        name = "archive-status",
        description = "Shows the archiver's state: the cutoff it would compute now, its cursor and how far behind"
                + " the cutoff it is, the rows past the cutoff, the lease, and the last commands.")
final class ArchiveStatusCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = "--retention",
            defaultValue = "${env:RISK_RETENTION:-32d}",
            converter = Converters.Length.class,
            description = "the service's risk.retention (default: $RISK_RETENTION, else 32d)")
    Duration retention;

    @Option(
            names = "--commands",
            defaultValue = "5",
            description = "how many of the last commands to show (default: ${DEFAULT-VALUE})")
    int commands;

    @Mixin
    DatabaseOptions database;

    @Override
    public Integer call() {
        if (commands < 0) {
            throw new ParameterException(spec.commandLine(), "--commands must be 0 or more");
        }
        try (Database db = database.open()) {
            ArchiveStatusQueries queries = new ArchiveStatusQueries(db.jdbc());
            Optional<String> tooShort = RetentionRule.shortfall(retention, queries.windowsInUse());
            if (tooShort.isPresent()) {
                throw new ParameterException(spec.commandLine(), "--retention: " + tooShort.get());
            }
            print(queries, spec.commandLine().getOut());
        }
        return 0;
    }

    private void print(ArchiveStatusQueries queries, PrintWriter out) {
        LocalDateTime cutoff = queries.cutoff(retention);
        Optional<ArchiveStatusQueries.Cursor> cursor = queries.cursor();
        ArchiveStatusQueries.Backlog backlog = queries.backlog(cutoff);
        TextTable state = new TextTable(
                        "cutoff", utc(cutoff) + "  (now - retention " + retention.toDays() + "d, database clock)")
                .row(
                        "cursor",
                        cursor.map(each -> utc(each.cursorTs()) + "  (moved " + each.updatedAt() + ")")
                                .orElse("none yet: the first run starts at the oldest bucket"))
                .row("behind", behind(cursor, backlog.oldestBucket(), cutoff))
                .row("oldest bucket", backlog.oldestBucket() == null ? "none" : utc(backlog.oldestBucket()))
                .row("lease", queries.lease().map(ArchiveStatusCommand::lease).orElse("free"));
        state.print(out, "");
        out.println("rows before the cutoff:");
        new TextTable("risk_hourly_agg", Long.toString(backlog.aggRows()))
                .row("risk_request_log", backlog.logRows())
                .row("risk_keyless_request_log", backlog.keylessRows())
                .print(out, "  ");
        printCommands(queries.lastCommands(commands), out);
    }

    private static void printCommands(List<ArchiveStatusQueries.CommandRun> runs, PrintWriter out) {
        out.println("last commands:");
        if (runs.isEmpty()) {
            out.println("  none");
            return;
        }
        TextTable table = new TextTable(
                "command_id",
                "status",
                "started_at",
                "finished_at",
                "dry_run",
                "deleted_agg_rows",
                "deleted_log_rows",
                "cursor_to",
                "error");
        runs.forEach(run -> table.row(
                run.commandId(),
                run.status(),
                run.startedAt(),
                run.finishedAt(),
                run.dryRun(),
                run.deletedAggRows(),
                run.deletedLogRows(),
                run.cursorTo(),
                run.error()));
        table.print(out, "  ");
    }

    /** From the cursor to the cutoff; before the first run, from where that run would start. */
    private static String behind(
            Optional<ArchiveStatusQueries.Cursor> cursor, LocalDateTime oldestBucket, LocalDateTime cutoff) {
        String from = cursor.isPresent() ? "the cursor" : "the oldest bucket";
        LocalDateTime start = cursor.map(ArchiveStatusQueries.Cursor::cursorTs).orElse(oldestBucket);
        if (start == null || !start.isBefore(cutoff)) {
            return "up to date (" + from + " is not before the cutoff)";
        }
        long hours = Duration.between(start, cutoff).toHours();
        return hours + " h (" + (hours / 24) + " d " + (hours % 24) + " h) from " + from + " to the cutoff";
    }

    private static String lease(ArchiveStatusQueries.Lease lease) {
        return lease.held()
                ? "held by run " + lease.holder() + " until " + lease.expiresAt()
                : "free (expired lease of run " + lease.holder() + ", " + lease.expiresAt() + ")";
    }

    private static String utc(LocalDateTime timestamp) {
        return timestamp.toInstant(ZoneOffset.UTC).toString();
    }
}
