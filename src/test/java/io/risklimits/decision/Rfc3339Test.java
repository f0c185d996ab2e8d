package io.risklimits.decision;

import static io.risklimits.support.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.Gen;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The hand-written reader of RFC 3339 timestamps against the pattern the contract gives for them. */
class Rfc3339Test {

    // RFC 3339 section 5.6, as the contract states it: four-digit year, seconds required, a fraction of
    // one to nine digits, offset Z or +hh:mm, T and Z in either case
    private static final Pattern RFC_3339 = Pattern.compile(
            "(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,9}))?(Z|([+-])(\\d{2}):(\\d{2}))",
            Pattern.CASE_INSENSITIVE);

    private static final Gen<String> TIMESTAMPS = Gen.of(
                    "2026-03-01T11:00:00Z",
                    "2026-03-01t11:00:00z",
                    "2026-03-01T17:30:00+05:30",
                    "2026-03-01T06:30:00-05:30",
                    "2026-03-01T11:59:59.123456789Z",
                    "2026-03-01T11:59:59.1234567Z",
                    "2024-02-29T23:59:59.5-00:30",
                    "0001-01-01T00:00:00Z",
                    "9999-12-31T23:59:59.999999999+18:00",
                    "2026-03-01T11:00:00.000001-18:00")
            .flatMap(Rfc3339Test::mutated);

    @Test
    void readsWhatThePatternReadsAndRefusesWhatItRefuses() {
        forAll(
                20_000,
                TIMESTAMPS,
                text -> assertThat(Rfc3339.instant(text)).as(text).isEqualTo(byPattern(text)));
    }

    @Test
    void theMutationsReachBothAnswers() {
        int[] read = new int[2];
        forAll(2_000, TIMESTAMPS, text -> read[byPattern(text) == null ? 0 : 1]++);

        assertThat(read[0]).as("refused").isGreaterThan(200);
        assertThat(read[1]).as("read").isGreaterThan(200);
    }

    // up to three edits, each a character replaced, inserted or removed, drawn from the characters a
    // timestamp is made of and a few it is not
    private static Gen<String> mutated(String text) {
        Gen<Character> characters = Gen.chars("0123456789-:.+TtZz x9");
        Gen<Integer> edits = Gen.ints(0, 3);
        return random -> {
            StringBuilder mutated = new StringBuilder(text);
            for (int edit = edits.next(random); edit > 0; edit--) {
                int at = random.nextInt(mutated.length() + 1);
                switch (random.nextInt(3)) {
                    case 0 -> {
                        if (at < mutated.length()) {
                            mutated.setCharAt(at, characters.next(random));
                        }
                    }
                    case 1 -> mutated.insert(at, characters.next(random).charValue());
                    default -> {
                        if (at < mutated.length()) {
                            mutated.deleteCharAt(at);
                        }
                    }
                }
            }
            return mutated.toString();
        };
    }

    private static Instant byPattern(String text) {
        Matcher timestamp = RFC_3339.matcher(text);
        if (!timestamp.matches()) {
            return null;
        }
        String fraction = timestamp.group(7);
        int nanos = fraction == null ? 0 : Integer.parseInt((fraction + "00000000").substring(0, 9));
        try {
            ZoneOffset offset = timestamp.group(9) == null
                    ? ZoneOffset.UTC
                    : ZoneOffset.ofHoursMinutes(
                            signed(timestamp.group(9), timestamp.group(10)),
                            signed(timestamp.group(9), timestamp.group(11)));
            return OffsetDateTime.of(
                            number(timestamp, 1),
                            number(timestamp, 2),
                            number(timestamp, 3),
                            number(timestamp, 4),
                            number(timestamp, 5),
                            number(timestamp, 6),
                            nanos,
                            offset)
                    .toInstant()
                    .truncatedTo(ChronoUnit.MICROS);
        } catch (DateTimeException notARealDateTimeOrOffset) {
            return null;
        }
    }

    private static int number(Matcher matcher, int group) {
        return Integer.parseInt(matcher.group(group));
    }

    private static int signed(String sign, String digits) {
        int value = Integer.parseInt(digits);
        return sign.equals("-") ? -value : value;
    }
}
