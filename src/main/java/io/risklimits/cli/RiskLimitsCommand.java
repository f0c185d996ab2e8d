package io.risklimits.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.ScopeType;

/** The top of the command tree; it does nothing itself but list its commands. */
@Command(
        name = "risk-limits",
        mixinStandardHelpOptions = true,
        versionProvider = RiskLimitsCommand.Version.class,
        // every command gets --help and --version
        scope = ScopeType.INHERIT,
        sortOptions = false,
        description = "Operator commands for the risk-limits service. Exit codes: 0 success, "
                + "1 operation failed (not found, unreachable, timed out), 2 bad arguments.",
        subcommands = {
            LimitsCommand.class,
            RatesCommand.class,
            ExplainCommand.class,
            HoldsCommand.class,
            UsageCommand.class,
            ArchiveRunCommand.class,
            ArchiveStatusCommand.class,
            SendEventCommand.class,
            BacktestCommand.class,
            picocli.CommandLine.HelpCommand.class
        })
final class RiskLimitsCommand {

    /** The jar's version from its manifest; none when run from the classes folder. */
    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = RiskLimitsCommand.class.getPackage().getImplementationVersion();
            return new String[] {"risk-limits " + (version == null ? "(development build)" : version)};
        }
    }
}
