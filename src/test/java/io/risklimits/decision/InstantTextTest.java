package io.risklimits.decision;

import static io.risklimits.support.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.Gen;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The text of an instant is {@link Instant#toString()}'s, over the whole range of Instant. */
class InstantTextTest {

    private static final long YEAR_0 = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
    private static final long YEAR_10000 =
            Instant.parse("+10000-01-01T00:00:00Z").getEpochSecond();

    // nanos of every fraction length Instant#toString writes: none, milliseconds, microseconds, nanoseconds
    private static final Gen<Integer> NANOS = Gen.oneOf(
            Gen.just(0),
            Gen.ints(0, 999).map(millis -> millis * 1_000_000),
            Gen.ints(0, 999_999).map(micros -> micros * 1_000),
            Gen.ints(0, 999_999_999));

    @Test
    void writesWhatInstantToStringWritesForTheYearsItWritesItself() {
        forAll(
                20_000,
                instants(YEAR_0, YEAR_10000 - 1),
                instant -> assertThat(InstantText.of(instant)).isEqualTo(instant.toString()));
    }

    @Test
    void writesWhatInstantToStringWritesForEveryInstant() {
        forAll(
                5_000,
                instants(Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond()),
                instant -> assertThat(InstantText.of(instant)).isEqualTo(instant.toString()));
    }

    @Test
    void writesTheEdgesOfItsOwnRangeAndOfTheDay() {
        for (String text : new String[] {
            "0000-01-01T00:00:00Z",
            "9999-12-31T23:59:59.999999999Z",
            "+10000-01-01T00:00:00Z",
            "-0001-12-31T23:59:59Z",
            "1970-01-01T00:00:00Z",
            "1969-12-31T23:59:59.999Z",
            "2024-02-29T12:00:00.000001Z",
            "2026-12-07T23:59:59.100Z",
            "2026-12-07T00:00:00.000000100Z"
        }) {
            Instant instant = Instant.parse(text);
            assertThat(InstantText.of(instant)).isEqualTo(instant.toString()).isEqualTo(text);
        }
    }

    @Test
    void nullIsNull() {
        assertThat(InstantText.of(null)).isNull();
    }

    private static Gen<Instant> instants(long firstSecond, long lastSecond) {
        Gen<Long> seconds = Gen.longs(firstSecond, lastSecond);
        return random -> Instant.ofEpochSecond(seconds.next(random), NANOS.next(random));
    }
}
