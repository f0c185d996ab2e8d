package io.risklimits.support;

import static io.risklimits.support.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PropertyCheckTest {

    @Test
    void theSameSeedDrawsTheSameSamplesInTheSameOrder() {
        List<Long> first = new ArrayList<>();
        List<Long> second = new ArrayList<>();

        forAll(42L, 100, Gen.longs(), first::add);
        forAll(42L, 100, Gen.longs(), second::add);

        assertThat(first).hasSize(100).isEqualTo(second);
    }

    @Test
    void aFailureNamesTheSeedTheTryAndTheSample() {
        assertThatThrownBy(
                        () -> forAll(7L, 50, Gen.ints(0, 9), n -> assertThat(n).isLessThan(9)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("seed 7")
                .hasMessageContaining("-D" + PropertyCheck.SEED_PROPERTY + "=7")
                .hasMessageContaining("of 50")
                .hasMessageEndingWith("sample 9");
    }

    @Test
    void aRangesValuesStayInsideItAndItsEdgesAreDrawn() {
        Set<Long> drawn = new HashSet<>();
        forAll(1L, 2000, Gen.longs(-5, 1_000_000), n -> {
            assertThat(n).isBetween(-5L, 1_000_000L);
            drawn.add(n);
        });

        assertThat(drawn).contains(-5L, -4L, -1L, 0L, 1L, 999_999L, 1_000_000L);
    }

    @Test
    void rangesThatTouchTheExtremesOfLongAreDrawnFrom() {
        Set<Long> drawn = new HashSet<>();
        forAll(3L, 2000, Gen.longs(0, Long.MAX_VALUE), n -> {
            assertThat(n).isNotNegative();
            drawn.add(n);
        });
        forAll(3L, 2000, Gen.longs(Long.MIN_VALUE, -1), n -> {
            assertThat(n).isNegative();
            drawn.add(n);
        });

        assertThat(drawn).contains(0L, Long.MAX_VALUE, Long.MIN_VALUE, -1L);
    }

    @Test
    void magnitudesDrawEachCountOfDigitsAboutAsOften() {
        int[] byDigits = new int[11];
        forAll(9L, 10_000, Gen.magnitudes(1, 1_000_000_000L), n -> {
            assertThat(n).isBetween(1L, 1_000_000_000L);
            byDigits[Long.toString(n).length()]++;
        });

        // ten counts of digits; edges (1, 2, 999999999, 1000000000) add to the ends
        for (int digits = 2; digits <= 8; digits++) {
            assertThat(byDigits[digits]).as(digits + " digits").isBetween(600, 1300);
        }
    }

    @Test
    void orNullGivesNullAboutAsOftenAsAsked() {
        int[] nulls = {0};
        forAll(11L, 10_000, Gen.just("x").orNull(0.6), value -> {
            if (value == null) {
                nulls[0]++;
            }
        });

        assertThat(nulls[0]).isBetween(5_700, 6_300);
    }

    @Test
    void aFilterThatRejectsEverythingGivesUpWithAClearError() {
        Gen<Long> never = Gen.longs(0, 10).filter(n -> n > 10);

        assertThatThrownBy(() -> never.next(new SplittableRandom(1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("rejected");
    }

    @Test
    void listsAndStringsKeepTheirSizesAndAlphabet() {
        forAll(5L, 500, Gen.strings("ab", 2, 4), text -> assertThat(text).matches("[ab]{2,4}"));
        forAll(5L, 500, Gen.bytes(0, 3), bytes -> assertThat(bytes.length).isBetween(0, 3));
        forAll(
                5L,
                500,
                Gen.of("x", "y").list(1, 2),
                list -> assertThat(list).hasSizeBetween(1, 2).allMatch(v -> v.equals("x") || v.equals("y")));
    }
}
