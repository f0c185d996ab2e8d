package io.risklimits.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import tools.jackson.databind.json.JsonMapper;

@Command(
        name = "archive",
        description = {
            "Publishes an archive command (schemas/archive-command.schema.json) with a new command_id and,"
                    + " unless --no-wait, waits for the archiver's result and prints it.",
            "Exit code 0 on COMPLETED or PARTIAL; 1 on FAILED, BUSY, INVALID, DUPLICATE or no result in time."
        })
final class ArchiveRunCommand implements Callable<Integer> {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Spec
    CommandSpec spec;

    @Option(names = "--window-minutes", description = "delete window, 1 .. 1440 (default: the archiver's, 180)")
    Integer windowMinutes;

    @Option(names = "--max-windows", description = "stop after this many windows (the result is then PARTIAL)")
    Integer maxWindows;

    @Option(names = "--dry-run", description = "count what would be deleted; delete nothing, move no cursor")
    boolean dryRun;

    @Option(
            names = "--wait",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "wait for the result (default: ${DEFAULT-VALUE}; --no-wait only publishes)")
    boolean waitForResult;

    @Option(
            names = "--timeout",
            defaultValue = "10m",
            converter = Converters.Length.class,
            description = "how long to wait for the result (default: ${DEFAULT-VALUE})")
    Duration timeout;

    @Option(
            names = "--archive-commands-topic",
            defaultValue = "${env:RISK_TOPICS_ARCHIVE_COMMANDS:-risk.archive.commands}",
            description = "(default: $RISK_TOPICS_ARCHIVE_COMMANDS, else ${DEFAULT-VALUE})")
    String commandsTopic;

    @Option(
            names = "--archive-results-topic",
            defaultValue = "${env:RISK_TOPICS_ARCHIVE_RESULTS:-risk.archive.results}",
            description = "(default: $RISK_TOPICS_ARCHIVE_RESULTS, else ${DEFAULT-VALUE})")
    String resultsTopic;

    @Mixin
    KafkaOptions kafka;

    @Override
    public Integer call() {
        validate();
        UUID commandId = UUID.randomUUID();
        String command = JSON.writeValueAsString(command(commandId));
        PrintWriter out = spec.commandLine().getOut();
        if (!waitForResult) {
            try (KafkaProducer<String, String> producer = kafka.producer()) {
                kafka.send(producer, commandsTopic, commandId.toString(), command);
            }
            out.println("sent     " + command);
            return 0;
        }
        // subscribed before sending, so a fast answer cannot be missed
        try (KafkaConsumer<String, String> results = kafka.consumerFromNow(resultsTopic);
                KafkaProducer<String, String> producer = kafka.producer()) {
            kafka.send(producer, commandsTopic, commandId.toString(), command);
            out.println("sent     " + command);
            out.flush();
            Optional<ArchiveAnswer> answer = ArchiveAnswer.await(results, commandId, timeout);
            if (answer.isEmpty()) {
                throw new CommandFailed("no result for command " + commandId + " within " + timeout.toSeconds()
                        + " s: is a service with the archiver role running on these topics?");
            }
            out.println("result   " + answer.get().json());
            if (!answer.get().succeeded()) {
                throw new CommandFailed(
                        "command " + commandId + " answered " + answer.get().summary());
            }
            out.println(answer.get().summary());
            return 0;
        }
    }

    private void validate() {
        if (windowMinutes != null && (windowMinutes < 1 || windowMinutes > 1440)) {
            throw new ParameterException(
                    spec.commandLine(), "--window-minutes must be 1 .. 1440, not " + windowMinutes);
        }
        if (maxWindows != null && maxWindows < 1) {
            throw new ParameterException(spec.commandLine(), "--max-windows must be 1 or more, not " + maxWindows);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new ParameterException(spec.commandLine(), "--timeout must be positive");
        }
    }

    private Map<String, Object> command(UUID commandId) {
        Map<String, Object> command = new LinkedHashMap<>();
        command.put("command_id", commandId.toString());
        if (windowMinutes != null) {
            command.put("window_minutes", windowMinutes);
        }
        if (maxWindows != null) {
            command.put("max_windows", maxWindows);
        }
        command.put("dry_run", dryRun);
        return command;
    }
}
