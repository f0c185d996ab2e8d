package io.risklimits.decision;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A limit's comparisons hold for any usage, below zero or near the long range, without overflowing. */
class LimitTest {

    private static final Limit MAX_1000_OR_5 = new Limit(1000L, 5L);
    private static final Limit THE_LONG_RANGE = new Limit(Long.MAX_VALUE, Long.MAX_VALUE);

    @Test
    void anUnlimitedWindowAdmitsWhateverTheUsageAsLongAsTheSumIsALong() {
        assertThat(Limit.UNLIMITED.admitsAmount(0, 1_000_000_000_000_000L)).isTrue();
        assertThat(Limit.UNLIMITED.admitsAmount(Long.MAX_VALUE - 5, 5)).isTrue();
        assertThat(Limit.UNLIMITED.admitsAmount(-400, 100))
                .as("usage below zero")
                .isTrue();
        assertThat(Limit.UNLIMITED.admitsAmount(Long.MIN_VALUE, 1_000_000_000_000_000L))
                .isTrue();
    }

    @Test
    void usageAtTheLargestLongAdmitsNothingMoreLimitedOrNot() {
        assertThat(Limit.UNLIMITED.admitsAmount(Long.MAX_VALUE, 1)).isFalse();
        assertThat(Limit.UNLIMITED.admitsAmount(Long.MAX_VALUE - 5, 6)).isFalse();
        assertThat(THE_LONG_RANGE.admitsAmount(Long.MAX_VALUE, 1)).isFalse();
        assertThat(THE_LONG_RANGE.admitsAmount(Long.MAX_VALUE, Long.MAX_VALUE)).isFalse();
        assertThat(MAX_1000_OR_5.admitsAmount(Long.MAX_VALUE, 1)).isFalse();
    }

    @Test
    void usageBelowZeroIsComparedAsTheNumberItIs() {
        assertThat(MAX_1000_OR_5.admitsAmount(-400, 1_400)).isTrue();
        assertThat(MAX_1000_OR_5.admitsAmount(-400, 1_401)).isFalse();
        assertThat(THE_LONG_RANGE.admitsAmount(-1, Long.MAX_VALUE)).isTrue();
        assertThat(new Limit(0L, 0L).admitsAmount(Long.MIN_VALUE, Long.MAX_VALUE))
                .isTrue();
    }

    @Test
    void theCountAdmitsOneMoreBelowTheMaximumWhateverTheUsage() {
        assertThat(MAX_1000_OR_5.admitsOneMore(4)).isTrue();
        assertThat(MAX_1000_OR_5.admitsOneMore(5)).isFalse();
        assertThat(MAX_1000_OR_5.admitsOneMore(-1)).isTrue();
        assertThat(MAX_1000_OR_5.admitsOneMore(Long.MAX_VALUE)).isFalse();
        assertThat(Limit.UNLIMITED.admitsOneMore(Long.MAX_VALUE)).isFalse();
        assertThat(THE_LONG_RANGE.admitsOneMore(Long.MAX_VALUE - 1)).isTrue();
    }
}
