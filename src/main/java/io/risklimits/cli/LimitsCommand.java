package io.risklimits.cli;

import picocli.CommandLine.Command;

@Command(
        name = "limits",
        description = "Show and change the rows of risk_limit. The service applies a change within"
                + " risk.limits.refresh (5 s by default), no restart.",
        subcommands = {
            LimitsShowCommand.class,
            LimitsSetCommand.class,
            LimitsUnsetCommand.class,
            LimitsPromoteCommand.class
        })
final class LimitsCommand {}
