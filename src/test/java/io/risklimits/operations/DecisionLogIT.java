package io.risklimits.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.risklimits.support.Events;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.OwnRows;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Logs by configuration: with structured logging on, every line is one JSON object, and at DEBUG
 * each decision is one line with its identifiers and outcome; at the default level no decision is
 * logged, and payload values never are.
 */
@ExtendWith(OutputCaptureExtension.class)
@ExtendWith(NoRowsLeftBehind.class)
class DecisionLogIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    // a value only the payloads carry: it must not reach the logs
    private static final long MARKER_AMOUNT = 987_654_321L;

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final OwnRows rows = new OwnRows();

    @AfterEach
    void deleteTheirRows() {
        rows.deleteTheirRows(db);
    }

    @Test
    void atDebugEachDecisionIsOneJsonLineWithoutThePayload(CapturedOutput output) {
        UUID entity = rows.newEntity();
        UUID approved = UUID.randomUUID();
        UUID invalid = UUID.randomUUID();
        RunningService.Topics topics = RunningService.Topics.unique();
        try (RunningService service = RunningService.start(
                        topics,
                        Map.of(
                                // the tests' logback-test.xml, with the appender Boot uses for this format
                                "logging.config", "classpath:logback-structured-test.xml",
                                "logging.structured.format.console", "ecs",
                                "logging.level.io.risklimits.decider", "DEBUG"));
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            send(producer, topics, entity, approved, 500);
            send(producer, topics, entity, invalid, -MARKER_AMOUNT);
            TestKafka.readAtLeast(topics.decisions(), 2, PATIENCE);

            await().atMost(PATIENCE).untilAsserted(() -> {
                assertThat(decisionLines(output, approved)).hasSize(1);
                assertThat(decisionLines(output, invalid)).hasSize(1);
            });
            JsonNode line = decisionLines(output, approved).get(0);
            assertThat(line.at("/log/level").stringValue()).isEqualTo("DEBUG");
            assertThat(line.get("decision").stringValue()).isEqualTo("APPROVED");
            assertThat(line.get("replayed").booleanValue()).isFalse();
            assertThat(line.get("message").stringValue()).contains("APPROVED", approved.toString());
            assertThat(decisionLines(output, invalid).get(0).get("decision").stringValue())
                    .isEqualTo("INVALID");
            assertThat(output.getOut()).doesNotContain(Long.toString(MARKER_AMOUNT));
        }
    }

    @Test
    void atTheDefaultLevelNoDecisionAndNoPayloadIsLogged(CapturedOutput output) {
        UUID entity = rows.newEntity();
        UUID dedupeId = UUID.randomUUID();
        RunningService.Topics topics = RunningService.Topics.unique();
        try (RunningService service = RunningService.start(topics, Map.of());
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            send(producer, topics, entity, dedupeId, -MARKER_AMOUNT);
            TestKafka.readAtLeast(topics.decisions(), 1, PATIENCE);
            TestKafka.readAtLeast(topics.deadLetter(), 1, PATIENCE);
        }
        assertThat(output.getAll()).doesNotContain(dedupeId.toString()).doesNotContain(Long.toString(MARKER_AMOUNT));
    }

    private static void send(
            KafkaProducer<byte[], byte[]> producer,
            RunningService.Topics topics,
            UUID entity,
            UUID dedupeId,
            long amount) {
        TestKafka.send(
                producer,
                topics.transactions(),
                null,
                Events.businessKey(entity, "CARD", "OUT"),
                Events.json(Events.event(dedupeId, entity, "CARD", "OUT", amount)));
    }

    /** The JSON log lines of the decision logger that name this dedupe_id. */
    private static List<JsonNode> decisionLines(CapturedOutput output, UUID dedupeId) {
        return Arrays.stream(output.getOut().split("\n"))
                .filter(line -> line.startsWith("{") && line.contains(dedupeId.toString()))
                .map(line -> JSON.readTree(line.getBytes(StandardCharsets.UTF_8)))
                .filter(json -> "io.risklimits.decider.DecisionPublisher"
                        .equals(json.at("/log/logger").stringValue()))
                .toList();
    }
}
