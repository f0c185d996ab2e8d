package io.risklimits.decision;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.DecisionSchema;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The decision messages of events in another currency than the limit currency, against the schema. */
class CurrencyDecisionJsonTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Instant BUCKET = Instant.parse("2026-11-23T08:00:00Z");
    private static final Instant DECIDED_AT = Instant.parse("2026-11-23T08:39:11.482295Z");
    private static final Instant VALID_FROM = Instant.parse("2026-11-23T06:00:00Z");
    private static final Limits LIMITS = new Limits(Map.of(Window.LAST_24_HOURS, new Limit(100_000L, 10L)));
    private static final BusinessKey KEY = new BusinessKey(UUID.randomUUID(), "ACH", Direction.OUT);

    @Test
    void aConvertedAuthorizationCarriesTheCountedAmountAndTheRateAndKeepsItsOwnAmount() {
        TransactionEvent event = new TransactionEvent(UUID.randomUUID(), KEY, 1_001, "EUR", DECIDED_AT);
        Conversion conversion = new Conversion(1_086, "USD", new BigDecimal("1.0842"), VALID_FROM);
        Decision decision = ConvertedDecisions.limitChecked(
                event,
                new FxPolicy.Counted(1_086, conversion, null),
                Outcome.approved(),
                List.of(check()),
                BUCKET,
                DECIDED_AT);

        byte[] message = DecisionJson.message(decision);

        DecisionSchema.assertValidDecision(message);
        JsonNode json = JSON.readTree(message);
        assertThat(json.get("amount").longValue()).isEqualTo(1_001);
        assertThat(json.get("currency").stringValue()).isEqualTo("EUR");
        assertThat(json.get("counted_amount").longValue()).isEqualTo(1_086);
        assertThat(json.get("fx").get("currency").stringValue()).isEqualTo("USD");
        assertThat(json.get("fx").get("rate").stringValue()).isEqualTo("1.0842");
        assertThat(json.get("fx").get("valid_from").stringValue()).isEqualTo("2026-11-23T06:00:00Z");
    }

    @Test
    void anAuthorizationInTheLimitCurrencyCarriesNoConversion() {
        TransactionEvent event = new TransactionEvent(UUID.randomUUID(), KEY, 1_001, "USD", DECIDED_AT);

        JsonNode json = JSON.readTree(DecisionJson.message(
                Decision.limitChecked(event, Outcome.approved(), List.of(check()), BUCKET, DECIDED_AT)));

        assertThat(json.has("counted_amount")).isFalse();
        assertThat(json.has("fx")).isFalse();
    }

    @Test
    void everyConversionRefusalIsAValidRejection() {
        for (Reason reason : List.of(Reason.NO_FX_RATE, Reason.FX_RATE_STALE, Reason.CURRENCY_MISMATCH)) {
            TransactionEvent event = new TransactionEvent(UUID.randomUUID(), KEY, 1_001, "EUR", DECIDED_AT);
            Decision rejected = ConvertedDecisions.limitChecked(
                    event,
                    new FxPolicy.Counted(0, null, reason),
                    Outcome.rejectedFor(reason),
                    List.of(check()),
                    BUCKET,
                    DECIDED_AT);

            byte[] message = DecisionJson.message(rejected);

            DecisionSchema.assertValidDecision(message);
            assertThat(JSON.readTree(message).get("reason").stringValue()).isEqualTo(reason.name());
        }
    }

    @Test
    void aCaptureRefusedForItsConversionIsAValidRejectionAndOneRejectedForALimitIsNot() {
        for (Reason reason : List.of(Reason.NO_FX_RATE, Reason.FX_RATE_STALE, Reason.CURRENCY_MISMATCH)) {
            assertThat(DecisionSchema.isValidDecision(rejectedCapture(reason)))
                    .as("a capture rejected %s", reason)
                    .isTrue();
        }
        assertThat(DecisionSchema.isValidDecision(rejectedCapture(Reason.LIMIT_24H_AMOUNT)))
                .as("a capture rejected for a limit")
                .isFalse();
    }

    private static byte[] rejectedCapture(Reason reason) {
        TransactionEvent capture = new TransactionEvent(
                UUID.randomUUID(),
                KEY,
                1_001,
                "EUR",
                DECIDED_AT,
                EventType.CAPTURE,
                null,
                null,
                UUID.randomUUID(),
                null,
                true);
        return DecisionJson.message(Decision.followUp(
                capture,
                Verdict.REJECTED,
                reason,
                Usage.NONE,
                LIMITS,
                BUCKET,
                DECIDED_AT,
                null,
                null,
                null,
                null,
                null,
                List.of()));
    }

    private static ScopeCheck check() {
        return new ScopeCheck(Scope.KEY, Usage.NONE, LIMITS);
    }
}
