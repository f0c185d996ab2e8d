package io.risklimits.decider;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.risklimits.support.DecisionMessage;
import io.risklimits.support.Events;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.OwnRows;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Shadow limits end to end: reported with each authorization of the keys they match, never
 * enforced, said again on a replay, and counted in the shadow metrics per scope.
 */
@ExtendWith(NoRowsLeftBehind.class)
class ShadowLimitsIT {

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final String channel =
            "SHD_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();
    private final OwnRows rows = new OwnRows();
    private final UUID entity = rows.newEntity();

    @AfterEach
    void deleteTheirRowsAndLimits() {
        rows.deleteTheirRows(db);
        db.update("DELETE FROM risk_limit WHERE channel = ?", channel);
    }

    @Test
    void shadowLimitsAreReportedNeverEnforcedAndCountedPerScope() {
        insertLimit("OUT", "24h", 10_000, 10, "enforce");
        insertLimit("OUT", "day", 1_500, 10, "shadow");
        insertLimit("OUT", "txn", 5_000, 0, "shadow");
        RunningService.Topics topics = RunningService.Topics.unique();
        byte[] first = event("OUT", 1_000);

        try (RunningService service = RunningService.start(topics, Map.of());
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            send(producer, topics, "OUT", first);
            send(producer, topics, "OUT", event("OUT", 1_000));
            send(producer, topics, "OUT", event("OUT", 9_000));
            send(producer, topics, "OUT", first);
            List<DecisionMessage> out = decisions(topics, 4);
            send(producer, topics, "IN", event("IN", 1_000));
            // the key of the other direction: its partition may be read before or after
            List<DecisionMessage> decisions = new java.util.ArrayList<>(out);
            decisions.add(
                    3,
                    decisions(topics, 5).stream()
                            .filter(message -> message.json()
                                    .get("direction")
                                    .stringValue()
                                    .equals("IN"))
                            .findFirst()
                            .orElseThrow());

            // enforced: 24h 10,000; shadow: day 1,500 and txn 5,000 beside the enforced 24h
            assertThat(decisions)
                    .extracting(DecisionMessage::decision)
                    .containsExactly("APPROVED", "APPROVED", "REJECTED", "APPROVED", "APPROVED");
            assertThat(shadow(decisions.get(0))).isEqualTo("APPROVED null");
            assertThat(shadow(decisions.get(1))).isEqualTo("REJECTED LIMIT_DAY_AMOUNT");
            assertThat(decisions.get(2).reason()).isEqualTo("LIMIT_24H_AMOUNT");
            assertThat(shadow(decisions.get(2))).isEqualTo("REJECTED LIMIT_TXN_AMOUNT");
            assertThat(decisions.get(3).json().has("shadow"))
                    .as("a key no shadow row matches")
                    .isFalse();
            assertThat(decisions.get(4).replayed()).isTrue();
            assertThat(decisions.get(4).withoutReplayedFlag())
                    .isEqualTo(decisions.get(0).withoutReplayedFlag());
            // never counted: the usage is that of the enforced approvals
            assertThat(db.queryForObject(
                            "SELECT sum(sum_amount) FROM risk_hourly_agg WHERE entity_id = ?", Long.class, entity))
                    .isEqualTo(3_000L);
            assertThat(decisions.get(0).json().get("limits").has("day")).isFalse();

            MeterRegistry meters = service.bean(MeterRegistry.class);
            String channelDirection = channel + "/OUT";
            assertThat(meters.get("risk.decider.shadow.evaluated")
                            .tag("channel_direction", channelDirection)
                            .counter()
                            .count())
                    .isEqualTo(3);
            assertThat(meters.get("risk.decider.shadow.changed")
                            .tags(
                                    "channel_direction",
                                    channelDirection,
                                    "change",
                                    "approved_to_rejected",
                                    "reason",
                                    "LIMIT_DAY_AMOUNT")
                            .counter()
                            .count())
                    .isEqualTo(1);
            assertThat(meters.find("risk.decider.shadow.changed")
                            .tags("channel_direction", channelDirection, "change", "rejected_to_approved")
                            .counters())
                    .isEmpty();
        }
    }

    private void insertLimit(String direction, String window, long maxAmount, long maxCount, String mode) {
        db.update(
                "INSERT INTO risk_limit (channel, direction, entity_id, window_name, max_amount, max_count, mode)"
                        + " VALUES (?, ?, NULL, ?, ?, ?, ?)",
                channel,
                direction,
                window,
                maxAmount,
                maxCount,
                mode);
    }

    private static String shadow(DecisionMessage message) {
        return message.json().get("shadow").get("decision").stringValue() + " "
                + message.json().get("shadow").get("reason").asString("null");
    }

    private byte[] event(String direction, long amount) {
        return Events.json(Events.event(UUID.randomUUID(), entity, channel, direction, amount));
    }

    private void send(
            KafkaProducer<byte[], byte[]> producer, RunningService.Topics topics, String direction, byte[] value) {
        TestKafka.send(producer, topics.transactions(), null, Events.businessKey(entity, channel, direction), value);
    }

    private static List<DecisionMessage> decisions(RunningService.Topics topics, int count) {
        return TestKafka.readAtLeast(topics.decisions(), count, Duration.ofSeconds(60)).stream()
                .map(DecisionMessage::of)
                .toList();
    }
}
