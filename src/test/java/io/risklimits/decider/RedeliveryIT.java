package io.risklimits.decider;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.DecisionMessage;
import io.risklimits.support.Events;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.OwnRows;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A dedupe_id seen before is answered with the decision stored for it, marked replayed, and
 * consumes no limit: not even when the limit has filled up since, and not when the copy follows
 * the original back to back; reused for other content, it is a conflict, answered the same way.
 */
@ExtendWith(NoRowsLeftBehind.class)
class RedeliveryIT {

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final String channel =
            "RED_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();
    private final OwnRows rows = new OwnRows();
    private final UUID entity = rows.newEntity();
    private final String key = Events.businessKey(entity, channel, "OUT");

    @AfterEach
    void deleteTheirRowsAndLimits() {
        rows.deleteTheirRows(db);
        db.update("DELETE FROM risk_limit WHERE channel = ?", channel);
    }

    @Test
    void aRedeliveredEventGetsItsStoredDecisionAgainAndConsumesNothing() {
        db.update(
                "INSERT INTO risk_limit (channel, direction, entity_id, window_name, max_amount, max_count)"
                        + " VALUES (?, 'OUT', NULL, '24h', 1000000, 3)",
                channel);
        RunningService.Topics topics = RunningService.Topics.unique();
        byte[] approved = event(100);
        List<byte[]> firstRound = List.of(approved, event(100), event(100), event(100), event(0));
        byte[] rejected = firstRound.get(3);
        byte[] invalid = firstRound.get(4);
        byte[] twice = event(100);

        try (RunningService service = RunningService.start(topics, Map.of());
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            firstRound.forEach(value -> send(producer, topics, value));
            List<DecisionMessage> first = decisions(topics, 5);
            assertThat(first)
                    .extracting(DecisionMessage::decision)
                    .containsExactly("APPROVED", "APPROVED", "APPROVED", "REJECTED", "INVALID");
            String bucketsBefore = buckets();

            List.of(approved, rejected, invalid, twice, twice).forEach(value -> send(producer, topics, value));
            List<DecisionMessage> all = decisions(topics, 10);
            List<DecisionMessage> second = all.subList(5, 10);

            assertThat(second)
                    .extracting(DecisionMessage::decision)
                    .containsExactly("APPROVED", "REJECTED", "INVALID", "REJECTED", "REJECTED");
            assertThat(second).extracting(DecisionMessage::replayed).containsExactly(true, true, true, false, true);
            assertThat(second.get(0).withoutReplayedFlag())
                    .isEqualTo(first.get(0).withoutReplayedFlag());
            assertThat(second.get(1).withoutReplayedFlag())
                    .isEqualTo(first.get(3).withoutReplayedFlag());
            assertThat(second.get(2).withoutReplayedFlag())
                    .isEqualTo(first.get(4).withoutReplayedFlag());
            assertThat(second.get(4).withoutReplayedFlag())
                    .isEqualTo(second.get(3).withoutReplayedFlag());
            assertThat(buckets()).as("hourly buckets after the redeliveries").isEqualTo(bucketsBefore);
            assertThat(db.queryForList(
                            "SELECT count(*) FROM risk_request_log WHERE entity_id = ?" + " GROUP BY dedupe_id",
                            Long.class,
                            entity))
                    .hasSize(6)
                    .containsOnly(1L);
        }
    }

    @Test
    void theAuditRowHoldsTheUsageAndLimitsOfTheMessage() {
        // usage that differs per window: a bucket 3 days and one 20 days ago
        db.update(
                "INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)"
                        + " VALUES (?, ?, 'OUT', date_trunc('hour', now() AT TIME ZONE 'UTC') - interval '3 days', 500, 2),"
                        + " (?, ?, 'OUT', date_trunc('hour', now() AT TIME ZONE 'UTC') - interval '20 days', 700, 1)",
                entity,
                channel,
                entity,
                channel);
        db.update(
                "INSERT INTO risk_limit (channel, direction, entity_id, window_name, max_amount, max_count)"
                        + " VALUES (?, 'OUT', NULL, '24h', 10000, 10), (?, 'OUT', NULL, '30d', 90000, 90)",
                channel,
                channel);
        RunningService.Topics topics = RunningService.Topics.unique();
        byte[] event = event(100);

        try (RunningService service = RunningService.start(topics, Map.of());
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            send(producer, topics, event);
            DecisionMessage decided = decisions(topics, 1).get(0);
            Map<String, Object> stored = db.queryForMap(
                    "SELECT usage::text AS usage, limits::text AS limits FROM risk_request_log WHERE entity_id = ?",
                    entity);

            assertThat(decided.json().get("usage").toString())
                    .isEqualTo("{\"24h\":{\"amount\":0,\"count\":0},\"7d\":{\"amount\":500,\"count\":2},"
                            + "\"30d\":{\"amount\":1200,\"count\":3}}");
            assertThat(decided.json().get("limits").get("24h").toString()).isEqualTo("{\"amount\":10000,\"count\":10}");
            assertThat(decided.json().get("limits").get("30d").toString()).isEqualTo("{\"amount\":90000,\"count\":90}");
            // the audit row keeps the documents as the message carries them, byte for byte (json, not jsonb)
            assertThat(stored.get("usage"))
                    .isEqualTo(decided.json().get("usage").toString());
            assertThat(stored.get("limits"))
                    .isEqualTo(decided.json().get("limits").toString());

            send(producer, topics, event);
            DecisionMessage replayed = decisions(topics, 2).get(1);
            assertThat(replayed.replayed()).isTrue();
            assertThat(replayed.withoutReplayedFlag()).isEqualTo(decided.withoutReplayedFlag());
        }
    }

    /**
     * A producer that reuses a dedupe_id for another event (another amount, or now a reversal) gets the
     * stored decision back, flagged with the fields that differ, and a dead-letter copy; nothing of the
     * second event is counted.
     */
    @Test
    void aReusedDedupeIdWithOtherContentIsAConflictNotAReplay() {
        RunningService.Topics topics = RunningService.Topics.unique();
        UUID dedupeId = UUID.randomUUID();
        byte[] original = Events.json(Events.event(dedupeId, entity, channel, "OUT", 100));
        byte[] otherAmount = Events.json(Events.event(dedupeId, entity, channel, "OUT", 900));
        byte[] nowAReversal = Events.json(Events.reversal(dedupeId, entity, channel, "OUT", 100, UUID.randomUUID()));

        try (RunningService service = RunningService.start(topics, Map.of());
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            send(producer, topics, original);
            DecisionMessage decided = decisions(topics, 1).get(0);
            String bucketsBefore = buckets();
            send(producer, topics, otherAmount);
            send(producer, topics, nowAReversal);
            List<DecisionMessage> conflicts = decisions(topics, 3).subList(1, 3);

            assertThat(conflicts).allSatisfy(conflict -> {
                assertThat(conflict.replayed()).isTrue();
                assertThat(conflict.json().get("amount").longValue()).isEqualTo(100);
                assertThat(conflict.json().get("decided_at"))
                        .isEqualTo(decided.json().get("decided_at"));
            });
            assertThat(conflicts.get(0).json().get("dedupe_conflict").toString())
                    .isEqualTo("[\"amount\"]");
            assertThat(conflicts.get(1).json().get("dedupe_conflict").toString())
                    .isEqualTo("[\"type\",\"reverses\"]");
            assertThat(TestKafka.readAtLeast(topics.deadLetter(), 2, Duration.ofSeconds(60)))
                    .extracting(record -> new String(
                            record.headers().lastHeader("risk.error.class").value(), StandardCharsets.UTF_8))
                    .containsExactly("DEDUPE_CONFLICT", "DEDUPE_CONFLICT");
            assertThat(buckets()).as("hourly buckets after the conflicts").isEqualTo(bucketsBefore);
        }
    }

    private byte[] event(long amount) {
        return Events.json(Events.event(UUID.randomUUID(), entity, channel, "OUT", amount));
    }

    private void send(KafkaProducer<byte[], byte[]> producer, RunningService.Topics topics, byte[] value) {
        TestKafka.send(producer, topics.transactions(), null, key, value);
    }

    private static List<DecisionMessage> decisions(RunningService.Topics topics, int count) {
        return new ArrayList<>(TestKafka.readAtLeast(topics.decisions(), count, Duration.ofSeconds(60)).stream()
                .map(DecisionMessage::of)
                .toList());
    }

    private String buckets() {
        return db.queryForList(
                        "SELECT bucket_ts || ':' || sum_amount || ':' || tx_count FROM risk_hourly_agg"
                                + " WHERE entity_id = ? ORDER BY bucket_ts",
                        String.class,
                        entity)
                .toString();
    }
}
