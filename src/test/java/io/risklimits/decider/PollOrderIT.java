package io.risklimits.decider;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.TransactionEventReader;
import io.risklimits.kafka.DeadLetterPublisher;
import io.risklimits.support.DecisionMessage;
import io.risklimits.support.Events;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.OwnRows;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * The records of one poll are decided in the order they were consumed, INVALID ones included, and
 * each record is read once: the records are on one partition before the decider starts, so they
 * arrive in one poll.
 */
@ExtendWith(NoRowsLeftBehind.class)
class PollOrderIT {

    private static final int PARTITION = 0;

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final RunningService.Topics topics = RunningService.Topics.unique();
    private final String channel = "ORDER_" + topics.suffix().toUpperCase();
    private final OwnRows rows = new OwnRows();
    private final UUID entity = rows.newEntity();
    private final String businessKey = Events.businessKey(entity, channel, "OUT");

    /** A record as produced, and its offset once the broker has it. */
    private record Produced(String dedupeId, long offset) {}

    @AfterEach
    void deleteTheirRows() {
        rows.deleteTheirRows(db);
    }

    @Test
    void anInvalidEventEarlierInThePollIsFiledFirstAndALaterEventWithItsDedupeIdIsAConflict() {
        UUID x = UUID.randomUUID();
        Map<String, Object> invalidX = Events.event(x, entity, channel, "OUT", 100);
        invalidX.put("amount", "100");
        Map<String, Object> validX = Events.event(x, entity, channel, "OUT", 100);
        UUID y = UUID.randomUUID();
        Map<String, Object> invalidY = Events.event(y, entity, channel, "OUT", 100);
        invalidY.put("amount", "100");
        UUID reversalId = UUID.randomUUID();
        Map<String, Object> reversalOfY = Events.reversal(reversalId, entity, channel, "OUT", 100, y);
        Map<String, Object> validY = Events.event(y, entity, channel, "OUT", 100);

        try (RunningService service = startPaused()) {
            List<Produced> produced = produce(List.of(invalidX, validX, invalidY, reversalOfY, validY));
            service.decider().start();

            Map<String, List<DecisionMessage>> decisions =
                    awaitDecisions(Map.of(x.toString(), 2, y.toString(), 2, reversalId.toString(), 1));
            for (UUID dedupeId : List.of(x, y)) {
                List<DecisionMessage> answers = decisions.get(dedupeId.toString());
                DecisionMessage filed = answers.get(0);
                assertThat(filed.decision())
                        .as("the first answer to %s, an INVALID event", dedupeId)
                        .isEqualTo("INVALID");
                assertThat(filed.replayed()).isFalse();
                assertThat(errorFields(filed)).containsExactly("amount");
                DecisionMessage conflict = answers.get(1);
                assertThat(conflict.decision())
                        .as("the answer to the valid event that reused %s", dedupeId)
                        .isEqualTo("INVALID");
                assertThat(conflict.replayed()).isTrue();
                assertThat(conflict.json().get("dedupe_conflict").toString()).isEqualTo("[\"amount\"]");
                assertThat(conflict.json().get("decided_at"))
                        .isEqualTo(filed.json().get("decided_at"));
            }
            DecisionMessage reversal = decisions.get(reversalId.toString()).get(0);
            assertThat(reversal.decision()).isEqualTo("REJECTED");
            assertThat(reversal.reason()).isEqualTo("ORIGINAL_NOT_APPROVED");

            assertThat(awaitDeadLetterClasses(4))
                    .as("dead letters by original offset")
                    .isEqualTo(Map.of(
                            produced.get(0).offset(), DeadLetterPublisher.Kind.INVALID_EVENT.name(),
                            produced.get(1).offset(), DeadLetterPublisher.Kind.DEDUPE_CONFLICT.name(),
                            produced.get(2).offset(), DeadLetterPublisher.Kind.INVALID_EVENT.name(),
                            produced.get(4).offset(), DeadLetterPublisher.Kind.DEDUPE_CONFLICT.name()));
            assertThat(storedDecisions())
                    .isEqualTo(Map.of(
                            x.toString(), "INVALID",
                            y.toString(), "INVALID",
                            reversalId.toString(), "REJECTED"));
            assertThat(countedAmount())
                    .as("amount counted in the key's buckets")
                    .isZero();
        }
    }

    @Test
    void aRecordIsReadOnceSoAClockThatMovesCannotGiveItTwoAnswers() {
        Instant start = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        MovingClockReader.start(start);
        UUID dedupeId = UUID.randomUUID();
        Map<String, Object> event = Events.event(dedupeId, entity, channel, "OUT", 100);
        // beyond the 5 minutes of skew at the first reading of the clock, within them at any later one
        event.put("occurred_at", start.plus(Duration.ofMinutes(6)).toString());

        try (RunningService service = RunningService.start(
                topics, Map.of("spring.kafka.listener.auto-startup", false), MovingClockReader.class)) {
            List<Produced> produced = produce(List.of(event));
            service.decider().start();

            DecisionMessage answer = awaitDecisions(Map.of(dedupeId.toString(), 1))
                    .get(dedupeId.toString())
                    .get(0);
            assertThat(answer.decision())
                    .as("the answer to an event read as INVALID")
                    .isEqualTo("INVALID");
            assertThat(errorFields(answer)).containsExactly("occurred_at");
            assertThat(awaitDeadLetterClasses(1))
                    .isEqualTo(Map.of(produced.get(0).offset(), DeadLetterPublisher.Kind.INVALID_EVENT.name()));
            assertThat(storedDecisions()).isEqualTo(Map.of(dedupeId.toString(), "INVALID"));
            assertThat(MovingClockReader.READS.get())
                    .as("readings of the clock")
                    .isEqualTo(1);
        }
    }

    /** The reader, with a clock that moves 10 minutes forward each time it is read. */
    static class MovingClockReader {

        static final AtomicInteger READS = new AtomicInteger();
        private static volatile Instant start;

        static void start(Instant at) {
            start = at;
            READS.set(0);
        }

        @Bean
        @Primary
        TransactionEventReader movingClockReader() {
            Clock moving = new Clock() {
                @Override
                public Instant instant() {
                    return start.plus(Duration.ofMinutes(10L * READS.getAndIncrement()));
                }

                @Override
                public ZoneId getZone() {
                    return ZoneOffset.UTC;
                }

                @Override
                public Clock withZone(ZoneId zone) {
                    throw new UnsupportedOperationException();
                }
            };
            return new TransactionEventReader("USD", Duration.ofMinutes(5), moving);
        }
    }

    // ---------------------------------------------------------------- the records

    private RunningService startPaused() {
        return RunningService.start(topics, Map.of("spring.kafka.listener.auto-startup", false));
    }

    private List<Produced> produce(List<Map<String, Object>> events) {
        List<Produced> produced = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            for (Map<String, Object> event : events) {
                long offset = producer.send(new ProducerRecord<>(
                                topics.transactions(), PARTITION, TestKafka.utf8(businessKey), Events.json(event)))
                        .get()
                        .offset();
                produced.add(new Produced((String) event.get("dedupe_id"), offset));
            }
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("could not produce", e);
        }
        return produced;
    }

    // ---------------------------------------------------------------- reading back

    private Map<String, List<DecisionMessage>> awaitDecisions(Map<String, Integer> messagesPerDedupeId) {
        List<ConsumerRecord<byte[], byte[]>> records =
                TestKafka.readUntil(topics.decisions(), Duration.ofSeconds(40), read -> {
                    Map<String, Long> seen = read.stream()
                            .collect(Collectors.groupingBy(
                                    record -> DecisionMessage.of(record).dedupeId(), Collectors.counting()));
                    return messagesPerDedupeId.entrySet().stream()
                            .allMatch(entry -> seen.getOrDefault(entry.getKey(), 0L) >= entry.getValue());
                });
        Map<String, List<DecisionMessage>> byDedupeId = new LinkedHashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            DecisionMessage message = DecisionMessage.of(record);
            byDedupeId
                    .computeIfAbsent(message.dedupeId(), id -> new ArrayList<>())
                    .add(message);
        }
        return byDedupeId;
    }

    private Map<Long, String> awaitDeadLetterClasses(int count) {
        return TestKafka.readUntil(topics.deadLetter(), Duration.ofSeconds(40), read -> read.size() >= count).stream()
                .collect(Collectors.toMap(
                        letter -> Long.parseLong(header(letter, DeadLetterPublisher.ORIGINAL_OFFSET)),
                        letter -> header(letter, DeadLetterPublisher.ERROR_CLASS)));
    }

    private static List<String> errorFields(DecisionMessage message) {
        List<String> fields = new ArrayList<>();
        JsonNode errors = message.json().get("errors");
        if (errors != null) {
            errors.forEach(error -> fields.add(error.get("field").stringValue()));
        }
        return fields;
    }

    private Map<String, String> storedDecisions() {
        Map<String, String> stored = new LinkedHashMap<>();
        db.query(
                "SELECT dedupe_id, decision FROM risk_request_log WHERE entity_id = ? AND channel_code = ?",
                rs -> {
                    stored.put(rs.getString("dedupe_id"), rs.getString("decision"));
                },
                entity,
                channel);
        return stored;
    }

    private long countedAmount() {
        return db.queryForObject(
                "SELECT coalesce(sum(sum_amount), 0) FROM risk_hourly_agg WHERE entity_id = ? AND channel_code = ?",
                Long.class,
                entity,
                channel);
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
