package io.risklimits.cli;

import io.risklimits.decision.Window;
import io.risklimits.limits.LimitRow;
import java.io.PrintWriter;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "unset",
        description = "Deletes the risk_limit row of one scope and window: a less specific row applies"
                + " instead, or none (unlimited).")
final class LimitsUnsetCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

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
            description = "24h, 7d or 30d")
    Window window;

    @Mixin
    DatabaseOptions database;

    @Override
    public Integer call() {
        String scope = LimitsShowCommand.scope(new LimitRow(channel, direction, entityId, window, 0, 0));
        boolean deleted;
        try (Database db = database.open()) {
            deleted = new LimitRows(db.jdbc()).delete(channel, direction, entityId, window);
        }
        if (!deleted) {
            throw new CommandFailed("no " + window.label() + " limit row for " + scope);
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println("deleted the " + window.label() + " limit row of " + scope);
        out.println("in force for decisions made after risk.limits.refresh (5 s by default)");
        return 0;
    }
}
