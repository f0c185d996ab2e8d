package io.risklimits.cli;

import io.risklimits.decision.Window;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(
        name = "promote",
        description = "Enforces the shadow limits of one row scope (scope, channel, direction, owner): in one"
                + " transaction each of its shadow rows becomes its enforced row of that window (replacing the one"
                + " there was) and the shadow rows are gone; its other enforced rows, and every other row scope's"
                + " rows, stay.")
final class LimitsPromoteCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    LimitScope scope;

    @Mixin
    DatabaseOptions database;

    @Override
    public Integer call() {
        scope.check(spec.commandLine());
        List<Window> promoted;
        try (Database db = database.open()) {
            promoted = new LimitRows(db.jdbc()).promote(scope.rowScope());
        }
        if (promoted.isEmpty()) {
            throw new CommandFailed("no shadow limit rows for " + scope.describe());
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println("enforced the shadow limits of " + scope.describe() + ": "
                + String.join(", ", promoted.stream().map(Window::label).toList()));
        out.println("in force for decisions made after risk.limits.refresh (5 s by default)");
        return 0;
    }
}
