package io.risklimits.decision;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The headroom a decision reports, figured by hand from usage and limits at every scope. */
class AvailableTest {

    private static final BusinessKey KEY = new BusinessKey(UUID.randomUUID(), "CARD", Direction.OUT);
    private static final Instant NOW = Instant.parse("2026-11-23T08:39:11Z");
    private static final Instant BUCKET = Instant.parse("2026-11-23T08:00:00Z");

    private static final Limits KEY_LIMITS = new Limits(Map.of(
            Window.TXN, new Limit(9_000L, null),
            Window.LAST_24_HOURS, new Limit(10_000L, 10L),
            Window.DAY, new Limit(8_000L, 3L)));
    private static final Usage KEY_USAGE = new Usage(Map.of(
            Window.LAST_24_HOURS, new Tally(3_000, 1),
            Window.DAY, new Tally(1_000, 1)));
    private static final Limits ENTITY_LIMITS = new Limits(Map.of(Window.LAST_7_DAYS, new Limit(12_000L, 20L)));
    private static final Usage ENTITY_USAGE = new Usage(Map.of(Window.LAST_7_DAYS, new Tally(6_500, 4)));

    @Test
    void anApprovedAuthorizationCountsItsAmountAndOneAndTheSmallestHeadroomOfAnyScopeBindsTheAmount() {
        Decision approved = authorization(2_000, Outcome.approved());

        // after it: key 24h 5,000 / 2 of 10,000 / 10, day 3,000 / 2 of 8,000 / 3; entity 7d 8,500 / 5 of 12,000 / 20
        assertThat(approved.available()).isEqualTo(new Available(3_500, 1L, Scope.ENTITY, Window.LAST_7_DAYS));
    }

    @Test
    void aRejectedAuthorizationCountsNothing() {
        Decision rejected = authorization(9_500, Outcome.rejectedFor(Reason.LIMIT_TXN_AMOUNT));

        assertThat(rejected.available()).isEqualTo(new Available(5_500, 2L, Scope.ENTITY, Window.LAST_7_DAYS));
    }

    @Test
    void anApprovedIncrementCountsItsAmountAndNoCount() {
        Decision increment = increment(Verdict.APPROVED, 1_000);

        assertThat(increment.available()).isEqualTo(new Available(4_500, 2L, Scope.ENTITY, Window.LAST_7_DAYS));
        assertThat(increment(Verdict.REJECTED, 1_000).available())
                .isEqualTo(new Available(5_500, 2L, Scope.ENTITY, Window.LAST_7_DAYS));
    }

    @Test
    void theTxnCapBoundsTheAmountAndACapAloneLimitsNoCount() {
        Limits capOnly = new Limits(Map.of(Window.TXN, new Limit(700L, 0L)));

        assertThat(Available.after(List.of(new ScopeCheck(Scope.KEY, KEY_USAGE, capOnly)), new Tally(500, 1)))
                .isEqualTo(new Available(700, null, Scope.KEY, Window.TXN));
    }

    @Test
    void amountAndCountAreEachTheirOwnMinimumAndTheFirstWindowCheckedBindsAmongEquals() {
        Limits limits = new Limits(Map.of(
                Window.TXN, new Limit(4_000L, null),
                Window.LAST_24_HOURS, new Limit(5_000L, 100L),
                Window.LAST_7_DAYS, new Limit(50_000L, 2L)));
        Usage usage =
                new Usage(Map.of(Window.LAST_24_HOURS, new Tally(1_000, 1), Window.LAST_7_DAYS, new Tally(1_000, 1)));

        assertThat(Available.after(List.of(new ScopeCheck(Scope.KEY, usage, limits)), Tally.ZERO))
                .isEqualTo(new Available(4_000, 1L, Scope.KEY, Window.TXN));
    }

    @Test
    void headroomIsNeverBelowZeroWhenUsageIsAboveALoweredLimitOrPastTheLongRange() {
        Limits lowered = new Limits(Map.of(Window.LAST_24_HOURS, new Limit(2_000L, 1L)));
        Usage over = new Usage(Map.of(Window.LAST_24_HOURS, new Tally(3_000, 4)));
        Usage saturated = new Usage(Map.of(Window.LAST_24_HOURS, new Tally(Long.MAX_VALUE, 4)));

        assertThat(Available.after(List.of(new ScopeCheck(Scope.KEY, over, lowered)), Tally.ZERO))
                .isEqualTo(new Available(0, 0L, Scope.KEY, Window.LAST_24_HOURS));
        assertThat(Available.after(List.of(new ScopeCheck(Scope.KEY, saturated, lowered)), new Tally(5, 1)))
                .isEqualTo(new Available(0, 0L, Scope.KEY, Window.LAST_24_HOURS));
    }

    @Test
    void absentWhenNothingLimitsTheKeyAndForEveryOtherKindOfDecision() {
        TransactionEvent event = new TransactionEvent(UUID.randomUUID(), KEY, 100, "USD", NOW);
        Decision unlimited = Decision.limitChecked(event, Outcome.approved(), Usage.NONE, Limits.NONE, BUCKET, NOW);
        Decision reversal = Decision.followUp(
                new TransactionEvent(UUID.randomUUID(), KEY, 100, "USD", NOW, EventType.REVERSAL, UUID.randomUUID()),
                Verdict.RELEASED,
                null,
                KEY_USAGE,
                KEY_LIMITS,
                BUCKET,
                NOW,
                new Tally(100, 1),
                0L,
                null,
                null,
                null,
                List.of());
        Decision invalid = Decision.invalid(
                UUID.randomUUID(),
                event.fields(),
                List.of(new FieldError("amount", "must be a positive integer")),
                NOW);

        assertThat(unlimited.available()).isNull();
        assertThat(reversal.available()).isNull();
        assertThat(invalid.available()).isNull();
    }

    private static Decision authorization(long amount, Outcome outcome) {
        TransactionEvent event = new TransactionEvent(UUID.randomUUID(), KEY, amount, "USD", NOW);
        return Decision.limitChecked(event, outcome, checks(), BUCKET, NOW);
    }

    private static Decision increment(Verdict verdict, long amount) {
        TransactionEvent event = new TransactionEvent(
                UUID.randomUUID(),
                KEY,
                amount,
                "USD",
                NOW,
                EventType.INCREMENT,
                null,
                null,
                UUID.randomUUID(),
                null,
                true);
        return Decision.followUp(
                event, verdict, null, KEY_USAGE, KEY_LIMITS, BUCKET, NOW, null, null, null, null, null, checks());
    }

    private static List<ScopeCheck> checks() {
        return List.of(
                new ScopeCheck(Scope.KEY, KEY_USAGE, KEY_LIMITS),
                new ScopeCheck(Scope.ENTITY, ENTITY_USAGE, ENTITY_LIMITS),
                new ScopeCheck(Scope.ACCOUNT, Usage.NONE, Limits.NONE));
    }
}
