package io.risklimits.cli;

import io.risklimits.backtest.AuditLogStream;
import io.risklimits.backtest.Backtest;
import io.risklimits.backtest.ProposedLimits;
import io.risklimits.decision.WindowCalendar;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

@Command(
        name = "backtest",
        description = {
            "Replays the authorizations and reversals decided in a period against proposed limits, key by key"
                    + " in the order they were decided, starting from the usage recorded before the period, and"
                    + " prints per scope how many decisions would flip (approved -> rejected, rejected ->"
                    + " approved), with their counts and amounts.",
            "Reads the audit log in one snapshot (a READ ONLY REPEATABLE READ transaction, no locks beyond"
                    + " those of any SELECT), so it can run against a live database."
        })
final class BacktestCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = "--limits",
            required = true,
            paramLabel = "FILE",
            converter = ProposedLimitsConverter.class,
            description = "the proposed limits, CSV rows channel,direction,entity_id,window,max_amount,max_count"
                    + " (entity_id empty for none; an optional header line starting with 'channel')")
    ProposedLimits limits;

    @Option(
            names = "--from",
            required = true,
            paramLabel = "INSTANT",
            converter = InstantText.class,
            description = "start of the period (inclusive), e.g. 2026-11-01T00:00:00Z")
    Instant from;

    @Option(
            names = "--to",
            required = true,
            paramLabel = "INSTANT",
            converter = InstantText.class,
            description = "end of the period (exclusive), e.g. 2026-11-08T00:00:00Z")
    Instant to;

    @Option(
            names = "--time-zone",
            paramLabel = "ZONE",
            defaultValue = "${env:RISK_LIMITS_TIME_ZONE:-UTC}",
            converter = CalendarZone.class,
            description = "the service's risk.limits.time-zone, where the day, week and month windows start"
                    + " (default: $RISK_LIMITS_TIME_ZONE, else UTC)")
    WindowCalendar calendar;

    @Option(names = "--json", description = "print the result as one JSON document")
    boolean json;

    @Mixin
    DatabaseOptions database;

    @Override
    public Integer call() {
        if (!from.isBefore(to)) {
            throw new ParameterException(
                    spec.commandLine(), "--from must be before --to, but --from is " + from + " and --to is " + to);
        }
        Backtest backtest = new Backtest(limits, calendar);
        long started = System.nanoTime();
        long rowsRead;
        try (Database db = database.open()) {
            rowsRead = new AuditLogStream(db.connection()).read(from, to, backtest::replay);
        } catch (SQLException failed) {
            throw new CommandFailed("reading the audit log failed: " + FailureMessages.describe(failed));
        }
        BacktestOutput output = new BacktestOutput(
                from,
                to,
                calendar.zone(),
                limits.rowCount(),
                backtest.report(),
                rowsRead,
                (System.nanoTime() - started) / 1e9);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            output.printJson(out);
        } else {
            output.printText(out);
        }
        return 0;
    }

    static final class ProposedLimitsConverter implements ITypeConverter<ProposedLimits> {
        @Override
        public ProposedLimits convert(String file) {
            return new ProposedLimits(ProposedLimitsFile.read(Path.of(file)));
        }
    }

    static final class InstantText implements ITypeConverter<Instant> {
        @Override
        public Instant convert(String value) {
            try {
                return Instant.parse(value);
            } catch (DateTimeParseException notAnInstant) {
                throw new TypeConversionException(
                        "expected an ISO-8601 instant like 2026-11-01T00:00:00Z but was '" + value + "'");
            }
        }
    }

    /** The zone, refused unless its offset from UTC is whole hours, as the service refuses it. */
    static final class CalendarZone implements ITypeConverter<WindowCalendar> {

        private static final Duration SERVICE_DEFAULT_RETENTION = Duration.ofDays(32);

        @Override
        public WindowCalendar convert(String value) {
            ZoneId zone;
            try {
                zone = ZoneId.of(value);
            } catch (java.time.DateTimeException unknown) {
                throw new TypeConversionException("'" + value + "' is not a time zone: " + unknown.getMessage());
            }
            try {
                return WindowCalendar.checked(zone, SERVICE_DEFAULT_RETENTION, Clock.systemUTC());
            } catch (IllegalArgumentException notWholeHours) {
                throw new TypeConversionException(notWholeHours.getMessage());
            }
        }
    }
}
