package io.risklimits.decider;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.Direction;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Outcome;
import io.risklimits.decision.Reason;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Usage;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The decisions by currency, and the conversions refused by reason, that the decider counts. */
class DeciderCurrencyMetricsTest {

    private static final Instant NOW = Instant.parse("2026-11-26T10:15:00Z");

    @Test
    void decisionsAreCountedByTheirEventsCurrencyReplaysApart() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        DeciderMetrics metrics = new DeciderMetrics(meters);

        metrics.published(decision("EUR", Outcome.approved()), 0);
        metrics.published(decision("EUR", Outcome.approved()).asReplay(), 0);
        metrics.published(decision("USD", Outcome.approved()), 0);

        assertThat(byCurrency(meters, "EUR"))
                .isNotNull()
                .extracting(Counter::count)
                .isEqualTo(1.0);
        assertThat(byCurrency(meters, "USD"))
                .isNotNull()
                .extracting(Counter::count)
                .isEqualTo(1.0);
    }

    @Test
    void everyRefusedConversionIsCountedByItsReasonFromZero() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        DeciderMetrics metrics = new DeciderMetrics(meters);

        metrics.published(decision("GTQ", Outcome.rejectedFor(Reason.NO_FX_RATE)), 0);
        metrics.published(
                decision("GTQ", Outcome.rejectedFor(Reason.NO_FX_RATE)).asReplay(), 0);
        metrics.published(decision("NOK", Outcome.rejectedFor(Reason.FX_RATE_STALE)), 0);

        assertThat(refused(meters, Reason.NO_FX_RATE))
                .isNotNull()
                .extracting(Counter::count)
                .isEqualTo(1.0);
        assertThat(refused(meters, Reason.FX_RATE_STALE))
                .isNotNull()
                .extracting(Counter::count)
                .isEqualTo(1.0);
        assertThat(refused(meters, Reason.CURRENCY_MISMATCH))
                .as("registered before any refusal, so the dashboard has the series")
                .isNotNull()
                .extracting(Counter::count)
                .isEqualTo(0.0);
    }

    private static Counter byCurrency(SimpleMeterRegistry meters, String currency) {
        return meters.find("risk.decisions.by.currency")
                .tag("currency", currency)
                .counter();
    }

    private static Counter refused(SimpleMeterRegistry meters, Reason reason) {
        return meters.find("risk.fx.conversions.refused")
                .tag("reason", reason.name())
                .counter();
    }

    private static Decision decision(String currency, Outcome outcome) {
        TransactionEvent event = new TransactionEvent(
                UUID.randomUUID(), new BusinessKey(UUID.randomUUID(), "ACH", Direction.OUT), 100, currency, NOW);
        return Decision.limitChecked(event, outcome, new Usage(Map.of()), new Limits(Map.of()), NOW, NOW);
    }
}
