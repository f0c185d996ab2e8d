package io.risklimits.decision;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class LimitPolicyTest {

    private static final Limit MAX_1000_OR_5 = new Limit(1000L, 5L);

    @ParameterizedTest
    @EnumSource(value = Window.class, names = "TXN", mode = EnumSource.Mode.EXCLUDE)
    void anAmountThatReachesTheLimitExactlyIsApproved(Window window) {
        Outcome outcome = LimitPolicy.decide(400, usage(window, 600, 1), limits(window, MAX_1000_OR_5));

        assertThat(outcome).isEqualTo(Outcome.approved());
    }

    @ParameterizedTest
    @EnumSource(value = Window.class, names = "TXN", mode = EnumSource.Mode.EXCLUDE)
    void oneMinorUnitOverTheAmountLimitIsRejectedForThatWindow(Window window) {
        Outcome outcome = LimitPolicy.decide(401, usage(window, 600, 1), limits(window, MAX_1000_OR_5));

        assertThat(outcome).isEqualTo(Outcome.rejectedFor(window.amountExceeded()));
    }

    @ParameterizedTest
    @EnumSource(value = Window.class, names = "TXN", mode = EnumSource.Mode.EXCLUDE)
    void theLastTransactionTheCountAllowsIsApprovedAndTheNextRejected(Window window) {
        assertThat(LimitPolicy.decide(1, usage(window, 0, 4), limits(window, MAX_1000_OR_5)))
                .isEqualTo(Outcome.approved());
        assertThat(LimitPolicy.decide(1, usage(window, 0, 5), limits(window, MAX_1000_OR_5)))
                .isEqualTo(Outcome.rejectedFor(window.countExceeded()));
    }

    @Test
    void theTxnCapLimitsOneAuthorizationWhateverTheUsageAndIgnoresTheCount() {
        Limits txnCap = limits(Window.TXN, new Limit(500L, 0L));
        Usage heavy = usage(Window.LAST_24_HOURS, Long.MAX_VALUE / 2, Integer.MAX_VALUE - 1L);

        assertThat(LimitPolicy.decide(500, heavy, txnCap)).isEqualTo(Outcome.approved());
        assertThat(LimitPolicy.decide(501, Usage.NONE, txnCap)).isEqualTo(Outcome.rejectedFor(Reason.LIMIT_TXN_AMOUNT));
    }

    @Test
    void theTxnCapIsCheckedFirst() {
        Map<Window, Limit> everyWindowFull = new EnumMap<>(Window.class);
        for (Window window : Window.values()) {
            everyWindowFull.put(window, new Limit(10L, 1L));
        }

        assertThat(LimitPolicy.decide(11, usage(Window.LAST_24_HOURS, 10, 1), new Limits(everyWindowFull)))
                .isEqualTo(Outcome.rejectedFor(Reason.LIMIT_TXN_AMOUNT));
    }

    @Test
    void shadowLimitsDecideBesideTheEnforcedOnesFromTheSameUsage() {
        Limits enforced = limits(Window.LAST_24_HOURS, new Limit(1_000L, 10L));
        Limits shadow =
                new Limits(Map.of(Window.LAST_24_HOURS, new Limit(1_000L, 10L), Window.DAY, new Limit(500L, 10L)));
        Usage usage = usage(Window.DAY, 300, 1);

        assertThat(LimitPolicy.decideShadow(300, usage, enforced)).isNull();
        assertThat(LimitPolicy.decide(300, usage, enforced.withShadow(shadow))).isEqualTo(Outcome.approved());
        assertThat(LimitPolicy.decideShadow(300, usage, enforced.withShadow(shadow)))
                .isEqualTo(Outcome.rejectedFor(Reason.LIMIT_DAY_AMOUNT));
    }

    @Test
    void theFirstFailingLimitIsTheReasonShortestWindowAndAmountFirst() {
        Map<Window, Limit> everyWindowFull = new EnumMap<>(Window.class);
        for (Window window : Window.values()) {
            everyWindowFull.put(window, new Limit(10L, 1L));
        }
        Usage everythingUsed = new Usage(Map.of(
                Window.LAST_24_HOURS, new Tally(10, 1),
                Window.LAST_7_DAYS, new Tally(10, 1),
                Window.LAST_30_DAYS, new Tally(10, 1)));

        assertThat(LimitPolicy.decide(5, everythingUsed, new Limits(everyWindowFull))
                        .reason())
                .isEqualTo(Reason.LIMIT_24H_AMOUNT);
        assertThat(LimitPolicy.decide(5, usage(Window.LAST_30_DAYS, 0, 1), new Limits(everyWindowFull))
                        .reason())
                .isEqualTo(Reason.LIMIT_30D_COUNT);
        // the rolling windows before the calendar ones
        assertThat(LimitPolicy.decide(5, usage(Window.MONTH, 0, 1), new Limits(everyWindowFull))
                        .reason())
                .isEqualTo(Reason.LIMIT_MONTH_COUNT);
        assertThat(LimitPolicy.decide(5, usage(Window.DAY, 10, 0), new Limits(everyWindowFull))
                        .reason())
                .isEqualTo(Reason.LIMIT_DAY_AMOUNT);
    }

    @Test
    void aWindowWithoutALimitIsUnlimited() {
        Usage huge = new Usage(Map.of(
                Window.LAST_24_HOURS, new Tally(Long.MAX_VALUE / 2, Integer.MAX_VALUE - 1L),
                Window.LAST_7_DAYS, Tally.ZERO,
                Window.LAST_30_DAYS, Tally.ZERO));

        assertThat(LimitPolicy.decide(1_000_000_000_000_000L, huge, Limits.NONE))
                .isEqualTo(Outcome.approved());
    }

    /**
     * A window whose usage reached the largest long (that much or more: its sum cannot be represented)
     * admits nothing, whether it has a limit or not.
     */
    @Test
    void aWindowWhoseUsageReachedTheLargestLongRejectsEvenWithoutALimit() {
        Usage saturated = usage(Window.LAST_7_DAYS, Long.MAX_VALUE, 3);

        assertThat(LimitPolicy.decide(1, saturated, Limits.NONE))
                .isEqualTo(Outcome.rejectedFor(Reason.LIMIT_7D_AMOUNT));
        assertThat(LimitPolicy.decide(1, saturated, limits(Window.LAST_7_DAYS, new Limit(Long.MAX_VALUE, 10L))))
                .isEqualTo(Outcome.rejectedFor(Reason.LIMIT_7D_AMOUNT));
    }

    /** Usage below zero (which the store never gives) must not overflow into a rejection. */
    @Test
    void usageBelowZeroInAnUnlimitedWindowDoesNotOverflowIntoARejection() {
        assertThat(LimitPolicy.decide(100, usage(Window.DAY, -400, 0), Limits.NONE))
                .isEqualTo(Outcome.approved());
    }

    @Test
    void aZeroLimitRejectsEverything() {
        assertThat(LimitPolicy.decide(1, Usage.NONE, limits(Window.LAST_7_DAYS, new Limit(0L, 100L))))
                .isEqualTo(Outcome.rejectedFor(Reason.LIMIT_7D_AMOUNT));
        assertThat(LimitPolicy.decide(1, Usage.NONE, limits(Window.LAST_7_DAYS, new Limit(100L, 0L))))
                .isEqualTo(Outcome.rejectedFor(Reason.LIMIT_7D_COUNT));
    }

    @Test
    void usageNearTheLargestLongCannotOverflowIntoAnApproval() {
        Limit maxLong = new Limit(Long.MAX_VALUE, null);
        Usage almostFull = usage(Window.LAST_24_HOURS, Long.MAX_VALUE - 10, 1);

        assertThat(LimitPolicy.decide(10, almostFull, limits(Window.LAST_24_HOURS, maxLong)))
                .isEqualTo(Outcome.approved());
        assertThat(LimitPolicy.decide(11, almostFull, limits(Window.LAST_24_HOURS, maxLong)))
                .isEqualTo(Outcome.rejectedFor(Reason.LIMIT_24H_AMOUNT));
    }

    private static Usage usage(Window window, long amount, long count) {
        Map<Window, Tally> byWindow = new EnumMap<>(Window.class);
        byWindow.put(window, new Tally(amount, count));
        return new Usage(byWindow);
    }

    private static Limits limits(Window window, Limit limit) {
        return new Limits(Map.of(window, limit));
    }
}
