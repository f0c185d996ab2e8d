package io.risklimits.cli;

import java.util.UUID;
import picocli.CommandLine.Option;

/** The scope of risk_limit rows (channel, direction, entity), as the limits commands take it. */
final class LimitScope {

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

    /** The scope as operators read it. */
    String describe() {
        return new RowScope(channel, direction, entityId).describe();
    }
}
