package io.risklimits.decision;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class DecisionDocumentsTest {

    private static final Limits LIMITS = new Limits(Map.of(Window.LAST_24_HOURS, new Limit(1_000_000L, 100L)));
    private static final Limits ACCOUNT_LIMITS = new Limits(Map.of(Window.DAY, new Limit(500_000L, 1_000L)));
    private static final Instant BUCKET = Instant.parse("2026-11-23T08:00:00Z");

    @Test
    void theDocumentsAreTheDecisionsWhenWrittenAgain() {
        Decision decision = approved(usage(1_200), List.of(accountCheck(3_000)), null);

        assertThat(DecisionJson.usage(decision)).isEqualTo(DecisionJson.usage(decision.usage(), LIMITS));
        assertThat(DecisionJson.usage(decision)).isEqualTo(DecisionJson.usage(decision.usage(), LIMITS));
        assertThat(DecisionJson.scopes(decision)).isEqualTo(DecisionJson.scopes(decision.scopes()));
        assertThat(DecisionJson.scopes(decision)).isEqualTo(DecisionJson.scopes(decision.scopes()));
    }

    @Test
    void aDecisionMadeWithAnotherOnesDocumentsWritesItsOwn() {
        Decision first = approved(usage(1_200), List.of(accountCheck(3_000)), null);
        String firstUsage = DecisionJson.usage(first);
        String firstScopes = DecisionJson.scopes(first);

        Decision second = approved(usage(4_800), List.of(accountCheck(9_000)), first.documents());

        assertThat(DecisionJson.usage(second))
                .isEqualTo(DecisionJson.usage(usage(4_800), LIMITS))
                .isNotEqualTo(firstUsage);
        assertThat(DecisionJson.scopes(second))
                .isEqualTo(DecisionJson.scopes(List.of(accountCheck(9_000))))
                .isNotEqualTo(firstScopes);
        assertThat(second.documents()).isNotSameAs(first.documents());
    }

    @Test
    void aDecisionWithoutScopesHasNoScopesDocument() {
        assertThat(DecisionJson.scopes(approved(usage(1_200), List.of(), null))).isNull();
    }

    @Test
    void decisionsCompareByWhatTheyDecideWhateverTheirDocuments() {
        Decision written = approved(usage(1_200), List.of(), null);
        DecisionJson.usage(written);

        assertThat(approved(usage(1_200), List.of(), null)).isEqualTo(written).hasSameHashCodeAs(written);
    }

    private static Usage usage(long amount) {
        return new Usage(Map.of(Window.LAST_24_HOURS, new Tally(amount, 1)));
    }

    private static ScopeCheck accountCheck(long amount) {
        return new ScopeCheck(Scope.ACCOUNT, new Usage(Map.of(Window.DAY, new Tally(amount, 1))), ACCOUNT_LIMITS);
    }

    private static Decision approved(Usage usage, List<ScopeCheck> scopes, DecisionDocuments documents) {
        return new Decision(
                UUID.fromString("4b7c1f7e-1d7a-4c55-9d38-5f4f5c1a9e01"),
                new EventFields(
                        UUID.fromString("d4300e83-3c2b-4d4e-8f5a-0e6c1b2a3d4f"),
                        "CARD",
                        Direction.OUT,
                        1_200L,
                        "USD",
                        Instant.parse("2026-11-23T08:39:10Z")),
                Verdict.APPROVED,
                null,
                List.of(),
                usage,
                LIMITS,
                BUCKET,
                Instant.parse("2026-11-23T08:39:11Z"),
                null,
                null,
                List.of(),
                null,
                scopes,
                null,
                null,
                null,
                null,
                false,
                documents);
    }
}
