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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DeciderMetricsTest {

    private static final Instant NOW = Instant.parse("2026-11-26T10:15:00Z");

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(textBlock = """
            LIMIT_24H_COUNT,                  key
            ENTITY_LIMIT_TXN_AMOUNT,          entity
            ACCOUNT_CHANNEL_LIMIT_7D_COUNT,   account_channel
            ACCOUNT_LIMIT_MONTH_AMOUNT,       account
            """)
    void aRejectionForALimitIsCountedUnderTheScopeOfThatLimit(Reason reason, String scope) {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();

        new DeciderMetrics(meters).published(decision(Outcome.rejectedFor(reason)), 0);

        Counter counted = meters.find("risk.decisions")
                .tags("decision", "REJECTED", "reason", reason.name(), "scope", scope)
                .counter();
        assertThat(counted).as("risk.decisions with scope %s", scope).isNotNull();
        assertThat(counted.count()).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            APPROVED,
            REJECTED, EXCEEDS_REMAINING
            """)
    void aDecisionNoLimitRejectedHasNoScope(String verdict, Reason reason) {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Outcome outcome = reason == null ? Outcome.approved() : Outcome.rejectedFor(reason);

        new DeciderMetrics(meters).published(decision(outcome), 0);

        assertThat(meters.find("risk.decisions")
                        .tags("decision", verdict, "scope", "none")
                        .counter())
                .as("risk.decisions with scope none")
                .isNotNull();
    }

    @Test
    void eachSeriesHasItsOwnCounterAndEveryDecisionOfItCounts() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        DeciderMetrics metrics = new DeciderMetrics(meters);

        metrics.published(decision(Outcome.approved()), 0);
        metrics.published(decision(Outcome.approved()), 0);
        metrics.published(decision(Outcome.approved()).asReplay(), 0);
        metrics.published(decision(Outcome.rejectedFor(Reason.LIMIT_24H_COUNT)), 0);

        assertThat(countOf(meters, "APPROVED", "none", "false")).isEqualTo(2);
        assertThat(countOf(meters, "APPROVED", "none", "true")).isEqualTo(1);
        assertThat(countOf(meters, "REJECTED", "LIMIT_24H_COUNT", "false")).isEqualTo(1);
        assertThat(meters.find("risk.decisions").counters()).hasSize(3);
    }

    private static double countOf(SimpleMeterRegistry meters, String verdict, String reason, String replayed) {
        return meters.get("risk.decisions")
                .tags("type", "AUTHORIZATION", "decision", verdict, "reason", reason, "replayed", replayed)
                .counter()
                .count();
    }

    private static Decision decision(Outcome outcome) {
        TransactionEvent event = new TransactionEvent(
                UUID.randomUUID(), new BusinessKey(UUID.randomUUID(), "CARD", Direction.OUT), 100, "USD", NOW);
        return Decision.limitChecked(event, outcome, new Usage(Map.of()), new Limits(Map.of()), NOW, NOW);
    }
}
