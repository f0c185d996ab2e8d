package io.risklimits.cli;

import io.risklimits.decision.Window;
import io.risklimits.limits.LimitRow;
import java.util.UUID;
import picocli.CommandLine.Option;

/** The scope and window of one risk_limit row, as limits set and limits unset take them. */
final class LimitScopeOptions {

    @Option(
            names = "--channel",
            required = true,
            converter = Converters.ChannelOrAny.class,
            description = "a channel, or * for any")
    String channel;

    @Option(
            names = "--direction",
            required = true,
            converter = Converters.DirectionOrAny.class,
            description = "IN, OUT, or * for any")
    String direction;

    @Option(
            names = "--entity",
            paramLabel = "UUID",
            converter = Converters.Uuid.class,
            description = "one entity's override")
    UUID entityId;

    @Option(
            names = "--window",
            required = true,
            converter = Converters.WindowLabel.class,
            description = "txn (a cap on one authorization's amount), 24h, 7d, 30d (rolling), day, week or month"
                    + " (calendar, in the service's risk.limits.time-zone)")
    Window window;

    @Option(
            names = "--shadow",
            description = "the scope's shadow row: evaluated beside the enforced limits and reported with each"
                    + " decision, never enforced (limits promote enforces it)")
    boolean shadow;

    LimitRow.Mode mode() {
        return shadow ? LimitRow.Mode.SHADOW : LimitRow.Mode.ENFORCE;
    }

    LimitRow row(long maxAmount, long maxCount) {
        return new LimitRow(channel, direction, entityId, window, maxAmount, maxCount, mode());
    }

    String scope() {
        return LimitsShowCommand.scope(row(0, 0));
    }
}
