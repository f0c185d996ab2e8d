package io.risklimits.decision;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Sums of tallies stop at the largest long, which stays what it is: "that much or more". */
class TallyTest {

    private static final long LARGEST = Long.MAX_VALUE;

    @Test
    void anAmountAddedPastTheLargestLongStopsThere() {
        assertThat(new Tally(LARGEST - 5, 3).plus(5)).isEqualTo(new Tally(LARGEST, 4));
        assertThat(new Tally(LARGEST - 5, 3).plus(6)).isEqualTo(new Tally(LARGEST, 4));
        assertThat(new Tally(LARGEST, 3).plus(1_000_000_000_000_000L)).isEqualTo(new Tally(LARGEST, 4));
        assertThat(new Tally(LARGEST - 1, 3).plus(new Tally(LARGEST - 1, 2))).isEqualTo(new Tally(LARGEST, 5));
    }

    @Test
    void whatIsTakenFromTheLargestLongLeavesItThere() {
        assertThat(new Tally(LARGEST, 3).minus(new Tally(1_000, 1))).isEqualTo(new Tally(LARGEST, 2));
        assertThat(new Tally(LARGEST - 1, 3).minus(new Tally(1_000, 1))).isEqualTo(new Tally(LARGEST - 1_001, 2));
    }

    @Test
    void whatIsTakenNeverLeavesLessThanZero() {
        assertThat(new Tally(600, 1).minus(new Tally(1_000, 2))).isEqualTo(Tally.ZERO);
    }
}
