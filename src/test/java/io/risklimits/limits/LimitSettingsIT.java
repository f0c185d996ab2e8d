package io.risklimits.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.risklimits.decision.WindowCalendar;
import io.risklimits.support.DecisionSchema;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The settings of calendar windows a worker refuses: a zone whose offset is not whole hours, and a
 * retention shorter than the longest window in use, at start-up and, for a window added later, before
 * the archiver deletes anything.
 */
class LimitSettingsIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final String channel =
            "SET_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();

    @Test
    void aZoneWhoseOffsetIsNotWholeHoursIsRefusedAtStartUpByName() {
        assertThatThrownBy(() -> RunningService.start(
                        RunningService.Topics.unique(), Map.of("risk.limits.time-zone", "Asia/Kolkata")))
                .rootCause()
                .hasMessageContaining("risk.limits.time-zone")
                .hasMessageContaining("Asia/Kolkata")
                .hasMessageContaining("not a whole number of hours");
    }

    @Test
    void aZoneWhoseOffsetWasFractionalOnlyBeforeRetentionStarts() {
        // America/Caracas: -04:30 until 2016, whole hours throughout the default retention of 32 days
        try (RunningService service = RunningService.start(
                RunningService.Topics.unique(), Map.of("risk.limits.time-zone", "America/Caracas"))) {
            assertThat(service.bean(WindowCalendar.class).zone()).isEqualTo(ZoneId.of("America/Caracas"));
        }
    }

    @Test
    void aRetentionShorterThanAMonthWindowInUseIsRefusedAtStartUp() {
        try {
            insertLimit("month");

            assertThatThrownBy(() -> RunningService.start(
                            RunningService.Topics.unique(),
                            // holds must expire within retention, so their longest time goes below it
                            Map.of("risk.retention", "30d", "risk.holds.max-ttl", "7d")))
                    .rootCause()
                    .hasMessageContaining("risk.retention is 30d but a limit uses the month window");
        } finally {
            deleteLimits();
        }
    }

    @Test
    void theArchiverRefusesToDeleteWhenAMonthWindowWasAddedSinceStartUp() {
        RunningService.Topics topics = RunningService.Topics.unique();
        try (RunningService service = RunningService.start(
                topics, Map.of("risk.roles", "archiver", "risk.retention", "30d", "risk.holds.max-ttl", "7d"))) {
            insertLimit("month");

            JsonNode result = runArchiveCommand(topics);

            assertThat(result.get("status").stringValue()).isEqualTo("FAILED");
            assertThat(result.get("error").stringValue())
                    .contains("risk.retention is 30d but a limit uses the month window");
            assertThat(result.get("windows").longValue()).isZero();
            assertThat(result.get("deleted_agg_rows").longValue()).isZero();
        } finally {
            deleteLimits();
        }
    }

    private void insertLimit(String window) {
        db.update(
                "INSERT INTO risk_limit (channel, direction, window_name, max_amount, max_count) VALUES (?, '*', ?, 1, 1)",
                channel,
                window);
    }

    private void deleteLimits() {
        db.update("DELETE FROM risk_limit WHERE channel = ?", channel);
    }

    private static JsonNode runArchiveCommand(RunningService.Topics topics) {
        UUID commandId = UUID.randomUUID();
        byte[] command = ("{\"command_id\": \"" + commandId + "\"}").getBytes(StandardCharsets.UTF_8);
        try (KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            TestKafka.send(producer, topics.archiveCommands(), null, commandId.toString(), command);
        }
        ConsumerRecord<byte[], byte[]> answer = TestKafka.readUntil(
                        topics.archiveResults(), Duration.ofSeconds(90), records -> !records.isEmpty())
                .get(0);
        DecisionSchema.assertValidArchiveResult(answer.value());
        return JSON.readTree(answer.value());
    }
}
