package io.risklimits.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(
        name = "unset",
        description = "Deletes the risk_limit row of one scope and window: a less specific row applies"
                + " instead, or none (unlimited).")
final class LimitsUnsetCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    LimitScopeOptions limit;

    @Mixin
    DatabaseOptions database;

    @Override
    public Integer call() {
        limit.scope.check(spec.commandLine());
        String scope = limit.scope.describe();
        boolean deleted;
        try (Database db = database.open()) {
            deleted = new LimitRows(db.jdbc()).delete(limit.row(0, 0));
        }
        if (!deleted) {
            throw new CommandFailed(
                    "no " + (limit.shadow ? "shadow " : "") + limit.window.label() + " limit row for " + scope);
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println("deleted the " + (limit.shadow ? "shadow " : "") + limit.window.label() + " limit row of " + scope);
        out.println("in force for decisions made after risk.limits.refresh (5 s by default)");
        return 0;
    }
}
