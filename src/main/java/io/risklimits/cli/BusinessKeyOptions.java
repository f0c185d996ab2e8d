package io.risklimits.cli;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import java.util.UUID;
import picocli.CommandLine.Option;

/** The business key a read-only command looks at: --entity-id, --channel and --direction, all required. */
final class BusinessKeyOptions {

    @Option(
            names = {"--entity-id", "--entity"},
            required = true,
            paramLabel = "UUID",
            converter = Converters.Uuid.class,
            description = "entity of the business key")
    UUID entityId;

    @Option(
            names = "--channel",
            required = true,
            converter = Converters.Channel.class,
            description = "channel of the business key")
    String channel;

    @Option(names = "--direction", required = true, description = "IN or OUT")
    Direction direction;

    BusinessKey businessKey() {
        return new BusinessKey(entityId, channel, direction);
    }
}
