package io.risklimits.cli;

import io.risklimits.decision.Window;
import io.risklimits.limits.LimitRow;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The row scope and window of one risk_limit row, as limits set and limits unset take them. */
final class LimitScopeOptions {

    @Mixin
    LimitScope scope;

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
        return new LimitRow(
                scope.channel,
                scope.direction,
                scope.entityId,
                window,
                maxAmount,
                maxCount,
                mode(),
                scope.scope,
                scope.accountId);
    }
}
