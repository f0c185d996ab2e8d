package io.risklimits.decider;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.DecisionMessage;
import io.risklimits.support.Events;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.sql.Timestamp;
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
        db.update("DELETE FROM risk_scope_hourly_agg WHERE owner_id = ?", entity);
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

    private byte[] event(long amount, String currency) {
        Map<String, Object> event = Events.event(UUID.randomUUID(), entity, channel, "OUT", amount);
        event.put("currency", currency);
        return Events.json(event);
    }
}
