package io.risklimits.cli;

import io.risklimits.decision.Window;
import io.risklimits.limits.LimitRow;
import java.io.PrintWriter;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "promote",
        description = "Enforces a scope's shadow limits: in one transaction each of its shadow rows becomes the"
                + " scope's enforced row of that window (replacing the one there was) and the shadow rows are"
                + " gone; the scope's other enforced rows stay.")
final class LimitsPromoteCommand implements Callable<Integer> {

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

    @Mixin
    DatabaseOptions database;

    @Override
    public Integer call() {
        String scope = LimitsShowCommand.scope(new LimitRow(channel, direction, entityId, Window.TXN, 0, 0));
        List<Window> promoted;
        try (Database db = database.open()) {
            promoted = new LimitRows(db.jdbc()).promote(channel, direction, entityId);
        }
        if (promoted.isEmpty()) {
            throw new CommandFailed("no shadow limit rows for " + scope);
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println("enforced the shadow limits of " + scope + ": "
                + String.join(", ", promoted.stream().map(Window::label).toList()));
        out.println("in force for decisions made after risk.limits.refresh (5 s by default)");
        return 0;
    }
}
