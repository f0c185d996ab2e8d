package io.risklimits.cli;

import io.risklimits.decision.Limit;
import io.risklimits.decision.Limits;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Tally;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Window;
import io.risklimits.decision.WindowCalendar;
import io.risklimits.decision.store.UsageLookup;
import io.risklimits.limits.LimitTable;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(
        name = "usage",
        description = {
            "Shows what a business key has used and has left: for every scope its events count at (the key, its"
                    + " entity, and with --account the account on the channel and the account) and every window,"
                    + " the usage up to the current hour, the enforced limit, what is left, and when a calendar"
                    + " window starts again. Reads only.",
            "Usage is read as the decider reads it, in one snapshot (a REPEATABLE READ read-only transaction)"
                    + " and without locks, so it never holds up a decision; a decision made after the snapshot is"
                    + " not in it."
        })
final class UsageCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    BusinessKeyOptions businessKey;

    @Option(
            names = {"--account-id", "--account"},
            paramLabel = "UUID",
            converter = Converters.Uuid.class,
            description = "the account the entity belongs to: shows the account scopes too")
    UUID accountId;

    @Option(
            names = "--time-zone",
            paramLabel = "ZONE",
            converter = BacktestCommand.ZoneText.class,
            description = "the service's risk.limits.time-zone, where the day, week and month windows start"
                    + " (default: the service's own setting, read as the service reads it; else UTC)")
    ZoneId zone;

    @Mixin
    DatabaseOptions database;

    /** One scope key's usage and limits in the snapshot. */
    private record ScopeUsage(ScopeKey key, Usage usage, Limits limits) {}

    @Override
    public Integer call() {
        WindowCalendar calendar = calendar();
        List<ScopeKey> keys = ScopeKey.countedAt(businessKey.businessKey(), accountId);
        Instant bucket;
        List<ScopeUsage> scopes;
        try (Database db = database.open()) {
            Connection connection = db.connection();
            connection.setAutoCommit(false);
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            connection.setReadOnly(true);
            UsageLookup lookup =
                    new UsageLookup(new JdbcTemplate(new SingleConnectionDataSource(connection, true)), calendar);
            bucket = lookup.currentBucket();
            Map<ScopeKey, Usage> usage = lookup.usageUpTo(keys, bucket);
            LimitTable limits = new LimitTable(new LimitRows(db.jdbc())
                    .all().stream().map(LimitRows.Stored::row).toList());
            scopes = keys.stream()
                    .map(key -> new ScopeUsage(
                            key, usage.get(key), limits.limitsFor(key).enforcedOnly()))
                    .toList();
            connection.commit();
        } catch (SQLException failed) {
            throw new CommandFailed("cannot read the usage: " + FailureMessages.describe(failed));
        }
        print(bucket, calendar, scopes, spec.commandLine().getOut());
        return 0;
    }

    private WindowCalendar calendar() {
        try {
            ZoneId zoneId =
                    zone != null ? zone : ServiceSettings.ofThisProcess().timeZone();
            // judged over the longest time any window reaches back
            return WindowCalendar.checked(zoneId, Window.MONTH.longestSpan(), Clock.systemUTC());
        } catch (IllegalArgumentException unusable) {
            throw new ParameterException(spec.commandLine(), unusable.getMessage());
        }
    }

    private static void print(Instant bucket, WindowCalendar calendar, List<ScopeUsage> scopes, PrintWriter out) {
        out.println("usage up to the hour " + bucket + " (calendar windows in "
                + calendar.zone().getId() + "), read in one snapshot:");
        for (ScopeUsage scope : scopes) {
            ScopeKey key = scope.key();
            out.println("  " + key.scope().label() + "  " + key.owner() + ":" + key.channel() + ":" + key.direction());
        }
        TextTable table = new TextTable(
                "scope",
                "window",
                "used_amount",
                "used_count",
                "max_amount",
                "max_count",
                "remaining_amount",
                "remaining_count",
                "resets_at");
        for (ScopeUsage scope : scopes) {
            for (Window window : Window.values()) {
                row(table, scope, window);
            }
        }
        table.print(out, "");
    }

    // txn has no usage and no count; a window without a limit in force is unlimited
    private static void row(TextTable table, ScopeUsage scope, Window window) {
        boolean counts = window.countsUsage();
        Tally used = scope.usage().of(window);
        Limit limit = scope.limits().of(window);
        boolean limited = scope.limits().inForce(window);
        long usedAmount = counts ? used.amount() : 0;
        table.row(
                scope.key().scope().label(),
                window.label(),
                counts ? used.amount() : null,
                counts ? used.count() : null,
                limited ? limit.maxAmount() : "unlimited",
                !counts ? null : limited ? limit.maxCount() : "unlimited",
                limited ? Math.max(0, limit.maxAmount() - usedAmount) : "unlimited",
                !counts ? null : limited ? Math.max(0, limit.maxCount() - used.count()) : "unlimited",
                scope.usage().resetOf(window));
    }
}
