package io.risklimits.decider;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.Events;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.OwnRows;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Record-derived text that the service logs (a mismatched Kafka key, the parser's complaint about a
 * value that is not JSON) arrives with CR/LF and escape sequences meant to forge log lines: the log
 * shows them escaped, on the line they belong to, and never starts a line with the forged text.
 */
@ExtendWith(OutputCaptureExtension.class)
@ExtendWith(NoRowsLeftBehind.class)
class HostileLogLinesIT {

    private static final String FORGED = "2026-11-23T00:00:00.000Z  INFO 1 --- [main] FORGED";

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final OwnRows rows = new OwnRows();

    @AfterEach
    void deleteTheirRows() {
        rows.deleteTheirRows(db);
    }

    @Test
    void crLfAndEscapesFromRecordsNeverStartALogLine(CapturedOutput output) {
        RunningService.Topics topics = RunningService.Topics.unique();
        UUID entity = rows.newEntity();
        String channel = "LOG_" + topics.suffix().toUpperCase();
        try (RunningService service = RunningService.start(topics, java.util.Map.of("risk.roles", "decider"));
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            // a valid event under a key that is not its business key: the key is logged
            TestKafka.send(
                    producer,
                    topics.transactions(),
                    0,
                    "evil\r\n" + FORGED + " key\u001b[2J",
                    Events.json(Events.event(UUID.randomUUID(), entity, channel, "OUT", 100)));
            // not JSON: the parser quotes the token, control characters included
            TestKafka.send(
                    producer,
                    topics.transactions(),
                    0,
                    null,
                    ("FORGED\u001b[31m\u0007\r\n" + FORGED + " value").getBytes(StandardCharsets.UTF_8));

            TestKafka.readAtLeast(topics.decisions(), 1, Duration.ofSeconds(60));
            TestKafka.readAtLeast(topics.deadLetter(), 1, Duration.ofSeconds(60));
        }

        assertThat(output.getOut())
                .as("both hostile records were logged, escaped")
                .contains("evil\\u000d\\u000a" + FORGED + " key\\u001b[2J")
                .contains("FORGED\\u001b");
        assertThat(output.getOut().lines())
                .as("no line begins with the forged text")
                .noneMatch(line -> line.startsWith(FORGED))
                .noneMatch(line -> line.contains("\u001b") || line.contains("\u0007") || line.contains("\r"));
    }
}
