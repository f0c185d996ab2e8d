package io.risklimits.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class EventStreamTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int EVENTS = 20_000;

    private final Scenario holdsMix = Scenario.named("holds-mix");
    private final List<Sent> stream = sent(new EventStream(holdsMix, BenchmarkKeys.random(200), 20261123L), EVENTS);

    private record Sent(String recordKey, JsonNode event) {

        String type() {
            return event.has("type") ? event.get("type").stringValue() : "AUTHORIZATION";
        }

        String field(String name) {
            return event.get(name).stringValue();
        }

        long amount() {
            return event.get("amount").longValue();
        }
    }

    @Test
    void everyAuthorizationOfTheHoldsMixIsAHoldThatExpiresAfterItOccurred() {
        List<Sent> authorizations = of("AUTHORIZATION");

        assertThat(authorizations)
                .isNotEmpty()
                .allSatisfy(authorization -> assertThat(Instant.parse(authorization.field("hold_expires_at")))
                        .isAfter(Instant.parse(authorization.field("occurred_at"))));
        assertThat(stream).extracting(Sent::type).containsOnly("AUTHORIZATION", "CAPTURE", "INCREMENT");
    }

    @Test
    void capturesAndIncrementsFollowAnEarlierAuthorizationOfTheirKeyAtMostOneEach() {
        Map<String, Sent> authorizationsSoFar = new HashMap<>();
        Map<String, String> followedBy = new HashMap<>();
        for (Sent sent : stream) {
            if (sent.type().equals("AUTHORIZATION")) {
                authorizationsSoFar.put(sent.field("dedupe_id"), sent);
                continue;
            }
            Sent original = authorizationsSoFar.get(sent.field("original"));
            assertThat(original)
                    .as("the original of %s, sent before it", sent.event())
                    .isNotNull();
            assertThat(sent.recordKey()).isEqualTo(original.recordKey());
            assertThat(followedBy.put(sent.field("original"), sent.type()))
                    .as("an earlier follow-up of %s", sent.field("original"))
                    .isNull();
            if (sent.type().equals("CAPTURE")) {
                assertThat(sent.amount()).isBetween(original.amount() * 9 / 10, original.amount() * 11 / 10);
            } else {
                assertThat(sent.amount()).isBetween(1L, original.amount() / 4);
            }
        }
    }

    @Test
    void ofTheAuthorizationsSixtyPercentAreCapturedTenIncrementedAndFiveExpireWithinSeconds() {
        // the first half's authorizations: every follow-up of theirs is in the stream
        List<Sent> firstHalf = stream.subList(0, EVENTS / 2).stream()
                .filter(sent -> sent.type().equals("AUTHORIZATION"))
                .toList();
        Map<String, String> followUps = new HashMap<>();
        of("CAPTURE").forEach(capture -> followUps.put(capture.field("original"), "CAPTURE"));
        of("INCREMENT").forEach(increment -> followUps.put(increment.field("original"), "INCREMENT"));

        assertThat(share(firstHalf, hold -> "CAPTURE".equals(followUps.get(hold.field("dedupe_id")))))
                .isCloseTo(0.60, within(0.03));
        assertThat(share(firstHalf, hold -> "INCREMENT".equals(followUps.get(hold.field("dedupe_id")))))
                .isCloseTo(0.10, within(0.02));
        assertThat(share(firstHalf, EventStreamTest::expiresWithinSeconds)).isCloseTo(0.05, within(0.015));
        assertThat(firstHalf)
                .filteredOn(EventStreamTest::expiresWithinSeconds)
                .noneMatch(hold -> followUps.containsKey(hold.field("dedupe_id")));
    }

    @Test
    void aScenarioWithoutHoldsSendsFinalSpendsAsBefore() {
        List<Sent> uniform = sent(new EventStream(Scenario.UNIFORM, BenchmarkKeys.random(200), 20261123L), 1_000);

        assertThat(uniform).allSatisfy(sent -> {
            assertThat(sent.type()).isEqualTo("AUTHORIZATION");
            assertThat(sent.event().has("hold_expires_at")).isFalse();
        });
    }

    @Test
    void aThirdOfTheCurrencyMixIsInTheFourForeignCurrenciesAndTheRestInTheLimitCurrency() {
        List<Sent> fxMix = sent(new EventStream(Scenario.FX_MIX, BenchmarkKeys.random(200), 20261123L), EVENTS);

        assertThat(fxMix).extracting(sent -> sent.field("currency")).containsOnly("USD", "EUR", "GBP", "JPY", "CAD");
        assertThat(share(fxMix, sent -> !sent.field("currency").equals("USD"))).isCloseTo(0.30, within(0.02));
        for (String currency : Scenario.FOREIGN_CURRENCIES) {
            assertThat(share(fxMix, sent -> sent.field("currency").equals(currency)))
                    .isCloseTo(0.075, within(0.01));
        }
        assertThat(fxMix).extracting(Sent::type).containsOnly("AUTHORIZATION");
    }

    @Test
    void aScenarioWithoutAForeignShareSendsEveryEventInTheLimitCurrency() {
        List<Sent> uniform = sent(new EventStream(Scenario.UNIFORM, BenchmarkKeys.random(200), 20261123L), 1_000);

        assertThat(uniform).extracting(sent -> sent.field("currency")).containsOnly("USD");
    }

    private static boolean expiresWithinSeconds(Sent hold) {
        Duration held = Duration.between(
                Instant.parse(hold.field("occurred_at")), Instant.parse(hold.field("hold_expires_at")));
        return held.compareTo(Duration.ofSeconds(5)) <= 0;
    }

    private static double share(List<Sent> holds, java.util.function.Predicate<Sent> which) {
        return (double) holds.stream().filter(which).count() / holds.size();
    }

    private List<Sent> of(String type) {
        return stream.stream().filter(sent -> sent.type().equals(type)).toList();
    }

    private static List<Sent> sent(EventStream stream, int count) {
        return stream.next(count).stream()
                .map(event ->
                        new Sent(new String(event.recordKey(), StandardCharsets.UTF_8), JSON.readTree(event.payload())))
                .toList();
    }
}
