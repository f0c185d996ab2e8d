package io.risklimits.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Set;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * The operator CLI in the service's jar: {@code java -jar risk-limits.jar <command> ...}. It runs
 * without a Spring context, so a command never starts the embedded PostgreSQL or Kafka.
 *
 * <p>Exit codes: 0 success, 1 the operation failed (not found, unreachable, timed out, a failed
 * archive run), 2 bad arguments.
 */
public final class OperatorCli {

    // the service takes no such options: "java -jar risk-limits.jar --help" means the CLI's help
    private static final Set<String> HELP_OPTIONS = Set.of("-h", "--help", "-V", "--version");

    private OperatorCli() {}

    /**
     * True when the arguments are a CLI command rather than the service's {@code --name=value}
     * settings. Any first argument that is not an option counts, so that a mistyped command is
     * answered with an error instead of silently starting the whole service; so do --help and --version.
     */
    public static boolean handles(String[] arguments) {
        return arguments.length > 0 && (!arguments[0].startsWith("-") || HELP_OPTIONS.contains(arguments[0]));
    }

    /** Runs one command as a process would and returns its exit code. */
    public static int run(String[] arguments, PrintStream out, PrintStream err) {
        PrintWriter outWriter = new PrintWriter(out, true);
        PrintWriter errWriter = new PrintWriter(err, true);
        CommandLine cli = new CommandLine(new RiskLimitsCommand())
                .setOut(outWriter)
                .setErr(errWriter)
                .setExecutionExceptionHandler(new FailureHandler())
                .setParameterExceptionHandler(OperatorCli::badArguments);
        try {
            return cli.execute(arguments);
        } finally {
            outWriter.flush();
            errWriter.flush();
        }
    }

    /** The process entry point for a CLI command: quiet client logs, run, exit with the command's code. */
    public static void exit(String[] arguments) {
        quietLibraryLogs();
        System.exit(run(arguments, System.out, System.err));
    }

    // Without Spring Boot's logging set-up, logback logs everything at DEBUG on stdout, which would bury
    // the command's output; the Kafka clients also warn on every failed connection attempt.
    private static void quietLibraryLogs() {
        if (LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof Logger root) {
            root.setLevel(Level.WARN);
        }
        if (LoggerFactory.getLogger("org.apache.kafka") instanceof Logger kafka) {
            kafka.setLevel(Level.ERROR);
        }
    }

    /** The error in one line, any "did you mean", then the usage of the command that was misused. */
    private static int badArguments(CommandLine.ParameterException badArguments, String[] arguments) {
        CommandLine command = badArguments.getCommandLine();
        PrintWriter err = command.getErr();
        err.println(badArguments.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(badArguments, err);
        command.usage(err);
        return command.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** Expected failures get one line and exit code 1; anything else one line too, but no stack trace. */
    private static final class FailureHandler implements CommandLine.IExecutionExceptionHandler {

        @Override
        public int handleExecutionException(
                Exception failure, CommandLine command, CommandLine.ParseResult parseResult) {
            String message = failure instanceof CommandFailed
                    ? failure.getMessage()
                    : "failed: " + FailureMessages.describe(failure);
            command.getErr().println(command.getCommandSpec().qualifiedName() + ": " + message);
            return CommandLine.ExitCode.SOFTWARE;
        }
    }
}
