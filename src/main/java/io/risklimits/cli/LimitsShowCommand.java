package io.risklimits.cli;

import io.risklimits.decision.Direction;
import io.risklimits.decision.Scope;
import io.risklimits.decision.ScopeKey;
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
            "Without options: every row of risk_limit. With only --scope key or account_channel: that scope's rows.",
            "With --channel (at the entity and account scopes, with --scope alone: they add up every channel):"
                    + " the limits in force for that scope key, per window, and which row they come from (the most"
                    + " specific row of the scope wins: owner + channel + direction, then channel + direction, then *"
                    + " rows; no row at all: unlimited)."
        })
final class LimitsShowCommand implements Callable<Integer> {

    // resolution for "an owner without an override of its own": no per-entity or per-account row is considered
    private static final UUID ANY_OWNER = new UUID(0, 0);

    @Spec
    CommandSpec spec;

    @Option(
            names = "--scope",
            paramLabel = "SCOPE",
            converter = LimitScope.ScopeLabel.class,
            description = "key (default), entity, account_channel or account")
    Scope scope;

    @Option(names = "--channel", converter = Converters.Channel.class, description = "channel of the scope key")
    String channel;

    @Option(names = "--direction", description = "IN or OUT (default: both)")
    Direction direction;

    @Option(
            names = "--entity",
            paramLabel = "UUID",
            converter = Converters.Uuid.class,
            description = "entity of the scope key, key and entity scopes (default: an entity without an override)")
    UUID entityId;

    @Option(
            names = "--account",
            paramLabel = "UUID",
            converter = Converters.Uuid.class,
            description = "account of the scope key, account_channel and account scopes (default: an account"
                    + " without an override)")
    UUID accountId;

    @Mixin
    DatabaseOptions database;

    @Override
    public Integer call() {
        Scope shown = scope == null ? Scope.KEY : scope;
        RowScope.refuseOwnersOfAnotherScope(spec.commandLine(), shown, entityId, accountId);
        if (shown.spansChannels() && channel != null) {
            throw new ParameterException(
                    spec.commandLine(),
                    "the " + shown.label() + " scope takes no --channel: " + RowScope.ADD_UP_EVERY_CHANNEL);
        }
        boolean listing = !shown.spansChannels() && channel == null;
        if (listing && (direction != null || entityId != null || accountId != null)) {
            throw new ParameterException(
                    spec.commandLine(),
                    shown == Scope.KEY
                            ? "--direction and --entity need --channel: limits apply to a business key"
                            : "--direction and --account need --channel: limits of the " + shown.label()
                                    + " scope apply per channel");
        }
        List<LimitRows.Stored> rows;
        try (Database db = database.open()) {
            rows = new LimitRows(db.jdbc()).all();
        }
        PrintWriter out = spec.commandLine().getOut();
        if (listing) {
            printAll(
                    rows.stream()
                            .filter(stored -> scope == null || stored.row().scope() == scope)
                            .toList(),
                    out);
        } else {
            List<Direction> directions = direction == null ? List.of(Direction.values()) : List.of(direction);
            directions.forEach(each -> printEffective(rows, shown, each, out));
        }
        return 0;
    }

    private static void printAll(List<LimitRows.Stored> rows, PrintWriter out) {
        TextTable table = new TextTable(
                "scope",
                "channel",
                "direction",
                "entity",
                "account",
                "window",
                "mode",
                "max_amount",
                "max_count",
                "updated_at");
        for (LimitRows.Stored stored : rows) {
            LimitRow row = stored.row();
            table.row(
                    row.scope().label(),
                    row.channel(),
                    row.direction(),
                    row.entityId(),
                    row.accountId(),
                    row.window().label(),
                    row.mode().label(),
                    row.maxAmount(),
                    row.maxCount(),
                    stored.updatedAt().toInstant());
        }
        table.print(out, "");
    }

    private void printEffective(List<LimitRows.Stored> stored, Scope shown, Direction direction, PrintWriter out) {
        UUID owner = shown.ownedByAccount() ? accountId : entityId;
        List<LimitRow> rows = stored.stream()
                .map(LimitRows.Stored::row)
                .filter(row -> owner != null || row.ownerId() == null)
                .toList();
        ScopeKey key = new ScopeKey(
                shown,
                owner == null ? ANY_OWNER : owner,
                shown.spansChannels() ? ScopeKey.ALL_CHANNELS : channel,
                direction);
        LimitTable limits = new LimitTable(rows);
        Map<Window, LimitRow> winners = limits.winningRows(key);
        Map<Window, LimitRow> shadowSet = limits.shadowSetRows(key);
        out.println(heading(shown, direction, owner));
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

    private String heading(Scope shown, Direction direction, UUID owner) {
        String ownerKind = shown.ownedByAccount() ? "account" : "entity";
        String ofOwner = owner == null ? "an " + ownerKind + " without an override" : ownerKind + " " + owner;
        if (shown == Scope.KEY) {
            return "limits for channel " + channel + ", direction " + direction + ", " + ofOwner + ":";
        }
        return "limits at scope " + shown.label() + " for "
                + (shown.spansChannels() ? "all channels" : "channel " + channel) + ", direction " + direction + ", "
                + ofOwner + ":";
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
