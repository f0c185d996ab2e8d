package io.risklimits.cli;

import io.risklimits.limits.LimitRow;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "set",
        description = "Sets the limit of one scope and window (inserts or replaces its risk_limit row); with --shadow,"
                + " its shadow row.")
final class LimitsSetCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    LimitScopeOptions limit;

    @Option(
            names = "--max-amount",
            required = true,
            converter = Converters.NonNegative.class,
            description = "in minor units, >= 0 (0 rejects everything)")
    long maxAmount;

    @Option(
            names = "--max-count",
            required = true,
            converter = Converters.NonNegative.class,
            description = "transactions, >= 0")
    long maxCount;

    @Mixin
    DatabaseOptions database;

    @Override
    public Integer call() {
        limit.scope.check(spec.commandLine());
        LimitRow row = limit.row(maxAmount, maxCount);
        Optional<LimitRows.Stored> before;
        try (Database db = database.open()) {
            LimitRows rows = new LimitRows(db.jdbc());
            // read first only to tell the operator what was replaced; the upsert itself is atomic
            before = rows.find(row);
            rows.upsert(row);
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println(
                "set " + (limit.shadow ? "shadow " : "") + limit.window.label() + " limit of " + limit.scope.describe()
                        + ": max_amount " + maxAmount + ", max_count " + maxCount
                        + (limit.window.countsUsage() ? "" : " (ignored for txn)"));
        out.println(before.map(stored -> "was max_amount " + stored.row().maxAmount() + ", max_count "
                        + stored.row().maxCount())
                .orElse("was not set for this scope"));
        out.println("in force for decisions made after risk.limits.refresh (5 s by default)");
        return 0;
    }
}
