package io.risklimits.decision;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The timestamps the contract takes: RFC 3339, read to the microsecond. */
final class Rfc3339 {

    // RFC 3339 section 5.6: four-digit year, seconds required, offset Z or +hh:mm (Java also takes
    // signed years of any length and offsets with seconds, which PostgreSQL cannot store faithfully).
    // The fields are taken from the groups, with no second parse by a DateTimeFormatter.
    private static final Pattern RFC_3339 = Pattern.compile(
            "(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,9}))?(Z|([+-])(\\d{2}):(\\d{2}))",
            Pattern.CASE_INSENSITIVE);

    private Rfc3339() {}

    /**
     * The instant of an RFC 3339 timestamp, to microseconds as PostgreSQL keeps it (a replayed decision
     * must echo the same instant); null when the text is not one or names no real date, time or offset.
     */
    static Instant instant(String text) {
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
