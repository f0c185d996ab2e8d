package io.risklimits.decider;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.hold.HoldTerms;
import io.risklimits.support.DecisionMessage;
import io.risklimits.support.DecisionSchema;
import io.risklimits.support.Events;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.OwnRows;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The hold lifecycle through the running service and a real broker: an authorization on CARD is a hold,
 * a tip is captured beyond it, and a hold of a key with no more traffic is expired by the sweep, its
 * EXPIRED decision published on the decisions topic under a dedupe_id derived from the authorization's.
 */
@ExtendWith(NoRowsLeftBehind.class)
class HoldLifecycleIT {

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final OwnRows rows = new OwnRows();
    private final UUID entity = rows.newEntity();
    private final String key = Events.businessKey(entity, "CARD", "OUT");

    @AfterEach
    void deleteTheirRows() {
        rows.deleteTheirRows(db);
    }

    @Test
    void aTipIsCapturedAndAnIdleKeysHoldIsExpiredAndPublishedByTheSweep() {
        RunningService.Topics topics = RunningService.Topics.unique();
        UUID expiring = UUID.randomUUID();
        UUID tipped = UUID.randomUUID();
        UUID tip = UUID.randomUUID();
        Instant expiresAt = Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.MILLIS);
        Map<String, Object> shortHold = Events.event(expiring, entity, "CARD", "OUT", 700);
        shortHold.put("hold_expires_at", expiresAt.toString());
        Map<String, Object> capture = Events.event(tip, entity, "CARD", "OUT", 1_200);
        capture.put("type", "CAPTURE");
        capture.put("original", tipped.toString());
        String expiry = HoldTerms.expiryId(expiring).toString();

        try (RunningService service = RunningService.start(topics, Map.of("risk.holds.sweep-interval", "1s"));
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            send(producer, topics, Events.json(shortHold));
            send(producer, topics, Events.json(Events.event(tipped, entity, "CARD", "OUT", 1_000)));
            send(producer, topics, Events.json(capture));

            List<DecisionMessage> decided = DecisionMessage.readUntilAllDecided(
                    topics.decisions(),
                    Set.of(expiring.toString(), tipped.toString(), tip.toString(), expiry),
                    Duration.ofSeconds(60));

            DecisionMessage held = only(decided, expiring.toString());
            assertThat(held.decision()).isEqualTo("APPROVED");
            assertThat(held.json().get("hold_expires_at").stringValue()).isEqualTo(expiresAt.toString());
            DecisionMessage captured = only(decided, tip.toString());
            assertThat(captured.decision()).isEqualTo("CAPTURED");
            assertThat(captured.json().get("captured").longValue()).isEqualTo(1_000);
            assertThat(captured.json().get("over_captured").longValue()).isEqualTo(200);
            assertThat(captured.json().get("original").stringValue()).isEqualTo(tipped.toString());
            DecisionMessage expired = only(decided, expiry);
            assertThat(expired.decision()).isEqualTo("EXPIRED");
            assertThat(expired.json().get("type").stringValue()).isEqualTo("EXPIRY");
            assertThat(expired.json().get("original").stringValue()).isEqualTo(expiring.toString());
            assertThat(expired.json().get("released").get("amount").longValue()).isEqualTo(700);
            assertThat(expired.json().get("remaining").longValue()).isZero();
            decided.forEach(message ->
                    DecisionSchema.assertValidDecision(message.json().toString().getBytes(StandardCharsets.UTF_8)));
            assertThat(db.queryForObject(
                            "SELECT sum(sum_amount) FROM risk_hourly_agg WHERE entity_id = ?", Long.class, entity))
                    .as("the tipped authorization and its tip; the expired hold gave back its 700")
                    .isEqualTo(1_200L);
        }
    }

    private static DecisionMessage only(List<DecisionMessage> decided, String dedupeId) {
        List<DecisionMessage> mine = decided.stream()
                .filter(message -> message.dedupeId().equals(dedupeId))
                .toList();
        assertThat(mine).isNotEmpty();
        assertThat(mine)
                .allSatisfy(message -> assertThat(message.withoutReplayedFlag())
                        .isEqualTo(mine.get(0).withoutReplayedFlag()));
        return mine.get(0);
    }

    private void send(KafkaProducer<byte[], byte[]> producer, RunningService.Topics topics, byte[] value) {
        TestKafka.send(producer, topics.transactions(), null, key, value);
    }
}
