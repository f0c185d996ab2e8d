package io.risklimits.cli;

import io.risklimits.archive.ArchiveCursor;
import io.risklimits.backtest.AuditLogStream;
import io.risklimits.backtest.Backtest;
import io.risklimits.backtest.ProposedLimits;
import io.risklimits.backtest.RetainedHistory;
import io.risklimits.decision.WindowCalendar;
import io.risklimits.decision.hold.HoldTerms;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
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
                    + " in the order they were decided (every key together when a proposed row limits an entity"
                    + " or an account scope), starting from the usage recorded before the period, and"
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
                    + " (entity_id empty for none; an optional header line starting with 'channel'), each"
                    + " optionally followed by scope,account_id (key, entity, account_channel or account;"
                    + " account_id empty for none)")
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
            converter = ZoneText.class,
            description = "the service's risk.limits.time-zone, where the day, week and month windows start"
                    + " (default: the service's own setting, read as the service reads it: application.yml,"
                    + " $RISK_LIMITS_TIME_ZONE, -Drisk.limits.time-zone; else UTC)")
    ZoneId zone;

    @Option(
            names = "--retention",
            paramLabel = "DURATION",
            converter = Converters.Length.class,
            description = "the service's risk.retention: the audit log holds the hours from now minus it on, so"
                    + " --from may be no earlier than the proposed windows allow (default: the service's own"
                    + " setting, read as the service reads it: application.yml, $RISK_RETENTION,"
                    + " -Drisk.retention; else 32d)")
    Duration retention;

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
        Duration retained;
        ZoneId zoneId;
        HoldTerms holdTerms;
        try {
            ServiceSettings settings = ServiceSettings.ofThisProcess();
            retained = retention != null ? retention : settings.retention();
            zoneId = zone != null ? zone : settings.timeZone();
            holdTerms = settings.holdTerms();
        } catch (IllegalArgumentException unreadable) {
            throw new ParameterException(spec.commandLine(), unreadable.getMessage());
        }
        WindowCalendar calendar = calendar(zoneId, retained);
        Backtest backtest = new Backtest(limits, calendar);
        long started = System.nanoTime();
        long rowsRead;
        try (Database db = database.open()) {
            refuseAFromBeforeTheRetainedHistory(db, retained, calendar);
            AuditLogStream auditLog = new AuditLogStream(db.connection(), holdTerms);
            rowsRead = limits.hasScopeRows()
                    ? auditLog.readTogether(from, to, backtest)
                    : auditLog.read(from, to, backtest::replay);
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

    /** The zone, refused unless its offset from UTC is whole hours, as the service refuses it at start-up. */
    private WindowCalendar calendar(ZoneId zoneId, Duration retained) {
        try {
            return WindowCalendar.checked(zoneId, retained, Clock.systemUTC());
        } catch (IllegalArgumentException notWholeHours) {
            String source = zone != null ? "--time-zone" : "risk.limits.time-zone (the service's setting)";
            throw new ParameterException(spec.commandLine(), source + ": " + notWholeHours.getMessage());
        }
    }

    /**
     * The archiver deletes the hours before now minus risk.retention (the database clock): a period whose
     * windows reach before that would be replayed from less usage than there was, and flip what the
     * proposed limits would not have flipped.
     */
    private void refuseAFromBeforeTheRetainedHistory(Database db, Duration retained, WindowCalendar calendar) {
        Instant cutoff = new ArchiveCursor(db.jdbc()).cutoff(retained).toInstant(ZoneOffset.UTC);
        Instant earliest = new RetainedHistory(cutoff).earliestFrom(limits.windowsInUse(), calendar);
        if (from.isBefore(earliest)) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--from " + from + " is too early: the audit log holds the hours from " + cutoff
                            + " on (now minus risk.retention, " + describe(retained) + "), and the proposed"
                            + " limits' windows at --from reach before that, so the replay would start from"
                            + " too little usage; the earliest --from the audit log supports is " + earliest);
        }
    }

    private static String describe(Duration duration) {
        return duration.toHoursPart() == 0 && duration.toMinutesPart() == 0 && duration.toSecondsPart() == 0
                ? duration.toDays() + "d"
                : duration.toHours() + "h";
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

    static final class ZoneText implements ITypeConverter<ZoneId> {
        @Override
        public ZoneId convert(String value) {
            try {
                return ZoneId.of(value);
            } catch (java.time.DateTimeException unknown) {
                throw new TypeConversionException("'" + value + "' is not a time zone: " + unknown.getMessage());
            }
        }
    }
}
