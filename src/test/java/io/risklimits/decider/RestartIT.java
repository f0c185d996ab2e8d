package io.risklimits.decider;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.DecidedChannel;
import io.risklimits.support.DecisionMessage;
import io.risklimits.support.Events;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.OwnRows;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The worker stopped mid-stream and started again: no event is lost, none is applied twice, and
 * whatever was redelivered is answered with the decision already made.
 */
@ExtendWith(NoRowsLeftBehind.class)
class RestartIT {

    private static final int EVENTS = 3000;
    private static final int ENTITIES = 10;
    private static final int MAX_COUNT_24H = 200;

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final String channel =
            "RST_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();
    private final OwnRows rows = new OwnRows();

    @AfterEach
    void deleteTheirRowsAndLimits() {
        rows.deleteTheirRows(db);
        db.update("DELETE FROM risk_limit WHERE channel = ?", channel);
    }

    @Test
    void stoppingMidStreamLosesNothingAndAppliesNothingTwice() {
        db.update(
                "INSERT INTO risk_limit (channel, direction, entity_id, window_name, max_amount, max_count)"
                        + " VALUES (?, '*', NULL, '24h', 100000000, ?)",
                channel,
                MAX_COUNT_24H);
        RunningService.Topics topics = RunningService.Topics.unique();
        Map<String, Object> settings = Map.of("risk.roles", "decider");
        Set<String> sent;

        // small polls on one thread, so the first worker is surely stopped with work left
        Map<String, Object> slowFirst = Map.of(
                "risk.roles", "decider", "risk.decider.concurrency", 1, "spring.kafka.consumer.max-poll-records", 5);
        try (RunningService first = RunningService.start(topics, slowFirst)) {
            sent = produce(topics);
            TestKafka.readAtLeast(topics.decisions(), EVENTS / 6, Duration.ofSeconds(60));
        }
        long decidedBeforeRestart = auditRows();
        assertThat(decidedBeforeRestart).as("decided before the stop").isLessThan(EVENTS);

        List<DecisionMessage> messages;
        try (RunningService second = RunningService.start(topics, settings)) {
            messages = DecisionMessage.readUntilAllDecided(topics.decisions(), sent, Duration.ofSeconds(120));
        }

        assertThat(auditRows()).isEqualTo(EVENTS);
        assertThat(db.queryForList(
                        "SELECT count(*) FROM risk_request_log WHERE channel_code = ? GROUP BY dedupe_id"
                                + " HAVING count(*) > 1",
                        Long.class,
                        channel))
                .isEmpty();
        new DecidedChannel(db, channel).assertDecidedConsistently(messages, MAX_COUNT_24H);
    }

    private Set<String> produce(RunningService.Topics topics) {
        Random random = new Random(42);
        List<UUID> entities = new ArrayList<>();
        for (int i = 0; i < ENTITIES; i++) {
            entities.add(rows.newEntity());
        }
        Set<String> sent = new HashSet<>();
        List<Future<RecordMetadata>> sends = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            for (int i = 0; i < EVENTS; i++) {
                UUID entity = entities.get(random.nextInt(ENTITIES));
                UUID dedupeId = UUID.randomUUID();
                byte[] payload = Events.json(Events.event(dedupeId, entity, channel, "OUT", 1 + random.nextInt(1000)));
                sends.add(producer.send(new ProducerRecord<>(
                        topics.transactions(), TestKafka.utf8(Events.businessKey(entity, channel, "OUT")), payload)));
                sent.add(dedupeId.toString());
            }
            TestKafka.confirm(sends);
        }
        return sent;
    }

    private long auditRows() {
        return db.queryForObject("SELECT count(*) FROM risk_request_log WHERE channel_code = ?", Long.class, channel);
    }
}
