package io.risklimits.cli;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.Window;
import io.risklimits.limits.LimitRow;
import io.risklimits.limits.LimitTable;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(
        name = "show",
        description = {
            "Without options: every row of risk_limit.",
            "With --channel: the limits in force for that scope, per window, and which row they come from"
                    + " (the most specific row wins: entity + channel + direction, then channel + direction,"
                    + " then * rows; no row at all: unlimited)."
        })
final class LimitsShowCommand implements Callable<Integer> {

    // resolution for "an entity without an override of its own": no per-entity row is considered
    private static final UUID ANY_ENTITY = new UUID(0, 0);

    @Spec
    CommandSpec spec;

    @Option(names = "--channel", converter = Converters.Channel.class, description = "channel of the scope")
    String channel;

    @Option(names = "--direction", description = "IN or OUT (default: both)")
    Direction direction;

    @Option(
            names = "--entity",
            paramLabel = "UUID",
            converter = Converters.Uuid.class,
            description = "entity of the scope (default: an entity without an override)")
    UUID entityId;

    @Mixin
    DatabaseOptions database;

    @Override
    public Integer call() {
        if (channel == null && (direction != null || entityId != null)) {
            throw new ParameterException(
                    spec.commandLine(), "--direction and --entity need --channel: limits apply to a business key");
        }
        List<LimitRows.Stored> rows;
        try (Database db = database.open()) {
            rows = new LimitRows(db.jdbc()).all();
        }
        PrintWriter out = spec.commandLine().getOut();
        if (channel == null) {
            printAll(rows, out);
        } else {
            List<Direction> directions = direction == null ? List.of(Direction.values()) : List.of(direction);
            directions.forEach(each -> printEffective(rows, each, out));
        }
        return 0;
    }

    private static void printAll(List<LimitRows.Stored> rows, PrintWriter out) {
        TextTable table = new TextTable(
                "channel", "direction", "entity", "window", "mode", "max_amount", "max_count", "updated_at");
        for (LimitRows.Stored stored : rows) {
            LimitRow row = stored.row();
            table.row(
                    row.channel(),
                    row.direction(),
                    row.entityId(),
                    row.window().label(),
                    row.mode().label(),
                    row.maxAmount(),
                    row.maxCount(),
                    stored.updatedAt().toInstant());
        }
        table.print(out, "");
    }

    private void printEffective(List<LimitRows.Stored> stored, Direction direction, PrintWriter out) {
        List<LimitRow> rows = stored.stream()
                .map(LimitRows.Stored::row)
                .filter(row -> entityId != null || row.entityId() == null)
                .toList();
        BusinessKey key = new BusinessKey(entityId == null ? ANY_ENTITY : entityId, channel, direction);
        LimitTable limits = new LimitTable(rows);
        Map<Window, LimitRow> winners = limits.winningRows(key);
        Map<Window, LimitRow> shadowSet = limits.shadowSetRows(key);
        out.println("limits for channel " + channel + ", direction " + direction + ", "
                + (entityId == null ? "an entity without an override" : "entity " + entityId) + ":");
        TextTable table = new TextTable("window", "max_amount", "max_count", "from row");
        TextTable shadowTable = new TextTable("window", "max_amount", "max_count", "from row");
        for (Window window : Window.values()) {
            addWinner(table, window, winners.get(window));
            addWinner(shadowTable, window, shadowSet.get(window));
        }
        table.print(out, "  ");
        if (!shadowSet.isEmpty()) {
            out.println("shadow limits (reported with each decision, never enforced):");
            shadowTable.print(out, "  ");
        }
    }

    private static void addWinner(TextTable table, Window window, LimitRow winner) {
        if (winner == null) {
            table.row(window.label(), "unlimited", "unlimited", "none");
        } else {
            table.row(
                    window.label(),
                    winner.maxAmount(),
                    window.countsUsage() ? winner.maxCount() : "-",
                    RowScope.of(winner).describe() + (winner.mode() == LimitRow.Mode.SHADOW ? " (shadow)" : ""));
        }
    }
}
