package io.risklimits.decider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.risklimits.kafka.DeadLetterPublisher;
import io.risklimits.support.DecisionMessage;
import io.risklimits.support.Events;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Events in other currencies than the limit currency (USD) through the running service: converted at the
 * rate of risk_fx_rate and published with counted_amount and fx (each message valid against the schema),
 * refused without a rate, INVALID for a code that is no currency, and replayed as first published.
 */
@ExtendWith(NoRowsLeftBehind.class)
class CurrenciesDeciderIT {

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final String channel =
            "FX_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();
    private final UUID entity = UUID.randomUUID();
    private final String key = Events.businessKey(entity, channel, "OUT");
    private final List<Timestamp> kronerRatesWritten = new ArrayList<>();

    // the database serves the whole test run: other tests would convert at this rate and see these rows
    @AfterEach
    void deleteTheRowsWritten() {
        kronerRatesWritten.forEach(validFrom ->
                db.update("DELETE FROM risk_fx_rate WHERE currency = 'DKK' AND valid_from = ?", validFrom));
        db.update("DELETE FROM risk_limit WHERE channel = ?", channel);
        for (String table : List.of("risk_hourly_agg", "risk_authorization_ledger", "risk_request_log")) {
            db.update("DELETE FROM " + table + " WHERE entity_id = ?", entity);
        }
        db.update("DELETE FROM risk_scope_hourly_chunk WHERE owner_id = ?", entity);
    }

    @Test
    void aForeignAuthorizationIsPublishedConvertedAndReplayedTheSame() {
        kronerRatesWritten.add(db.queryForObject(
                "INSERT INTO risk_fx_rate (currency, rate, valid_from) VALUES ('DKK', 0.1452, now() - interval '1 hour')"
                        + " RETURNING valid_from",
                Timestamp.class));
        db.update(
                "INSERT INTO risk_limit (channel, direction, entity_id, window_name, max_amount, max_count)"
                        + " VALUES (?, 'OUT', NULL, '24h', 1000000, 100)",
                channel);
        RunningService.Topics topics = RunningService.Topics.unique();
        byte[] kroner = event(1_001, "DKK");

        try (RunningService service = RunningService.start(topics, Map.of());
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            List.of(kroner, event(500, "GTQ"), event(500, "XXX"), event(100, "USD"), kroner)
                    .forEach(value -> TestKafka.send(producer, topics.transactions(), null, key, value));
            List<DecisionMessage> decisions =
                    TestKafka.readAtLeast(topics.decisions(), 5, Duration.ofSeconds(60)).stream()
                            .map(DecisionMessage::of)
                            .toList();

            DecisionMessage converted = decisions.get(0);
            assertThat(converted.decision()).isEqualTo("APPROVED");
            assertThat(converted.json().get("amount").longValue()).isEqualTo(1_001);
            assertThat(converted.json().get("currency").stringValue()).isEqualTo("DKK");
            // 10.01 kroner at 0.1452: 145.3452 cents, counted as 146
            assertThat(converted.json().get("counted_amount").longValue()).isEqualTo(146);
            assertThat(converted.json().get("fx").get("currency").stringValue()).isEqualTo("USD");
            assertThat(converted.json().get("fx").get("rate").stringValue()).isEqualTo("0.1452");
            assertThat(decisions.get(1).decision()).isEqualTo("REJECTED");
            assertThat(decisions.get(1).json().get("reason").stringValue()).isEqualTo("NO_FX_RATE");
            assertThat(decisions.get(2).decision()).isEqualTo("INVALID");
            // the dollars see the kroner counted in dollars
            assertThat(decisions
                            .get(3)
                            .json()
                            .get("usage")
                            .get("24h")
                            .get("amount")
                            .longValue())
                    .isEqualTo(146);
            assertThat(decisions.get(3).json().has("fx")).isFalse();
            assertThat(decisions.get(4).replayed()).isTrue();
            assertThat(decisions.get(4).withoutReplayedFlag()).isEqualTo(converted.withoutReplayedFlag());
        }
    }

    /**
     * An increment of a hold in kroner whose conversion does not fit a long of cents is tied to its record:
     * deciding it again would overflow again, so it is dead-lettered after its retries and the partition
     * moves on to the event after it (retried as a failure of the infrastructure, it would hold the
     * partition forever).
     */
    @Test
    void anIncrementTooLargeToCountIsDeadLetteredAndThePartitionMovesOn() {
        kronerRatesWritten.add(db.queryForObject(
                "INSERT INTO risk_fx_rate (currency, rate, valid_from) VALUES ('DKK', 100000, now() - interval '1 hour')"
                        + " RETURNING valid_from",
                Timestamp.class));
        RunningService.Topics topics = RunningService.Topics.unique();
        UUID hold = UUID.randomUUID();
        Map<String, Object> authorization = Events.event(hold, entity, channel, "OUT", 1);
        authorization.put("currency", "DKK");
        authorization.put(
                "hold_expires_at", Instant.now().plus(Duration.ofDays(1)).toString());
        Map<String, Object> increment = Events.event(UUID.randomUUID(), entity, channel, "OUT", 1_000_000_000_000_000L);
        increment.put("currency", "DKK");
        increment.put("type", "INCREMENT");
        increment.put("original", hold.toString());
        UUID after = UUID.randomUUID();

        try (RunningService service = RunningService.start(topics, Map.of("risk.roles", "decider"));
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            for (Map<String, Object> event :
                    List.of(authorization, increment, Events.event(after, entity, channel, "OUT", 100))) {
                TestKafka.send(producer, topics.transactions(), 0, key, Events.json(event));
            }
            List<DecisionMessage> decisions =
                    TestKafka.readAtLeast(topics.decisions(), 2, Duration.ofSeconds(90)).stream()
                            .map(DecisionMessage::of)
                            .toList();
            assertThat(decisions)
                    .extracting(DecisionMessage::dedupeId, DecisionMessage::decision)
                    .containsExactly(tuple(hold.toString(), "APPROVED"), tuple(after.toString(), "APPROVED"));
            List<ConsumerRecord<byte[], byte[]>> deadLetters =
                    TestKafka.readAtLeast(topics.deadLetter(), 1, Duration.ofSeconds(30));
            assertThat(deadLetters).hasSize(1);
            assertThat(new String(deadLetters.get(0).value(), StandardCharsets.UTF_8))
                    .contains(increment.get("dedupe_id").toString());
            assertThat(new String(
                            deadLetters
                                    .get(0)
                                    .headers()
                                    .lastHeader(DeadLetterPublisher.ERROR_CLASS)
                                    .value(),
                            StandardCharsets.UTF_8))
                    .contains("ArithmeticException");
        }
    }

    private byte[] event(long amount, String currency) {
        Map<String, Object> event = Events.event(UUID.randomUUID(), entity, channel, "OUT", amount);
        event.put("currency", currency);
        return Events.json(event);
    }
}
