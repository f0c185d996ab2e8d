package io.risklimits.decision;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.DecisionSchema;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * available and resets_at in the decision message and the request log: their shapes, what the schema
 * admits, and the usage column read back with its reset times.
 */
class HeadroomJsonTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final BusinessKey KEY = new BusinessKey(UUID.randomUUID(), "CARD", Direction.OUT);
    private static final Instant BUCKET = Instant.parse("2026-11-01T14:00:00Z");
    private static final Instant DECIDED_AT = Instant.parse("2026-11-01T14:30:05Z");
    private static final WindowCalendar NEW_YORK = new WindowCalendar(java.time.ZoneId.of("America/New_York"));

    private static final Limits LIMITS = new Limits(Map.of(
            Window.TXN, new Limit(5_000L, null),
            Window.LAST_24_HOURS, new Limit(10_000L, 10L),
            Window.DAY, new Limit(4_000L, 5L)));
    private static final Usage USAGE = new Usage(Map.of(
                    Window.LAST_24_HOURS, new Tally(1_000, 1),
                    Window.DAY, new Tally(1_000, 1)))
            .withResets(NEW_YORK.resetsAfter(BUCKET));

    @Test
    void anAuthorizationSaysWhatIsLeftAndACalendarWindowWhenItStartsAgain() {
        byte[] message = DecisionJson.message(approved(2_000));

        DecisionSchema.assertValidDecision(message);
        JsonNode node = JSON.readTree(message);
        assertThat(node.get("available").toString())
                .isEqualTo("{\"amount\":1000,\"count\":3,\"scope\":\"key\",\"window\":\"day\"}");
        assertThat(node.get("usage").get("day").toString())
                .isEqualTo("{\"amount\":1000,\"count\":1,\"resets_at\":\"2026-11-02T05:00:00Z\"}");
        assertThat(node.get("usage").get("24h").has("resets_at")).isFalse();
    }

    @Test
    void theUsageColumnReadsBackWithItsResetTimesSoAReplaySaysTheSame() {
        Decision decision = approved(2_000);
        String column = DecisionJson.usage(decision.usage(), decision.limits());

        Usage readBack = DecisionJson.usage(column);

        assertThat(readBack.resetOf(Window.DAY)).isEqualTo("2026-11-02T05:00:00Z");
        assertThat(readBack.resetOf(Window.LAST_24_HOURS)).isNull();
        assertThat(DecisionJson.usage(readBack, decision.limits())).isEqualTo(column);
    }

    @Test
    void theSchemaAdmitsNoMalformedHeadroom() {
        byte[] approved = DecisionJson.message(approved(2_000));

        for (Map.Entry<String, Consumer<Map<String, Object>>> change : Map.<String, Consumer<Map<String, Object>>>of(
                        "an available amount below zero",
                        m -> available(m).put("amount", -1),
                        "an available without its window",
                        m -> available(m).remove("window"),
                        "an available of an unknown scope",
                        m -> available(m).put("scope", "merchant"),
                        "an available with another field",
                        m -> available(m).put("currency", "USD"),
                        "an available on an invalid decision",
                        m -> {
                            m.put("decision", "INVALID");
                            m.put("reason", "INVALID_REQUEST");
                            m.put("errors", List.of(Map.of("field", "amount", "message", "x")));
                            m.remove("usage");
                            m.remove("limits");
                            m.remove("bucket_ts");
                        },
                        "a resets_at that is no time",
                        m -> usageOf(m, "day").put("resets_at", "tomorrow"),
                        "a resets_at on a rolling window",
                        m -> usageOf(m, "24h").put("resets_at", "2026-11-02T05:00:00Z"))
                .entrySet()) {
            Map<String, Object> fields = JSON.readValue(approved, LinkedHashMap.class);
            change.getValue().accept(fields);
            assertThat(DecisionSchema.isValidDecision(JSON.writeValueAsBytes(fields)))
                    .as(change.getKey())
                    .isFalse();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> available(Map<String, Object> message) {
        return (Map<String, Object>) message.get("available");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> usageOf(Map<String, Object> message, String window) {
        return ((Map<String, Map<String, Object>>) message.get("usage")).get(window);
    }

    private static Decision approved(long amount) {
        TransactionEvent event = new TransactionEvent(UUID.randomUUID(), KEY, amount, "USD", DECIDED_AT);
        return Decision.limitChecked(event, Outcome.approved(), USAGE, LIMITS, BUCKET, DECIDED_AT);
    }
}
