package io.risklimits.decision;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/** The timestamps the contract takes: RFC 3339, read to the microsecond. */
final class Rfc3339 {

    // RFC 3339 section 5.6: four-digit year, seconds required, offset Z or +hh:mm (Java also takes
    // signed years of any length and offsets with seconds, which PostgreSQL cannot store faithfully).
    // Read character by character, with T and Z in either case: it runs for every event, where a regular
    // expression and its groups cost more than the rest of the event's checks (Rfc3339Test holds it to
    // the pattern the contract gives).
    private static final int SECONDS_END = 19;

    private Rfc3339() {}

    /**
     * The instant of an RFC 3339 timestamp, to microseconds as PostgreSQL keeps it (a replayed decision
     * must echo the same instant); null when the text is not one or names no real date, time or offset.
     */
    static Instant instant(String text) {
        int length = text.length();
        if (length < SECONDS_END + 1 || !isDateAndTime(text)) {
            return null;
        }
        int at = SECONDS_END;
        int nanos = 0;
        if (text.charAt(at) == '.') {
            int digits = 0;
            at++;
            while (at < length && isDigit(text.charAt(at)) && digits < 9) {
                nanos = nanos * 10 + text.charAt(at) - '0';
                digits++;
                at++;
            }
            if (digits == 0 || (at < length && isDigit(text.charAt(at)))) {
                return null;
            }
            for (; digits < 9; digits++) {
                nanos *= 10;
            }
        }
        ZoneOffset offset = offset(text, at);
        if (offset == null) {
            return null;
        }
        try {
            return OffsetDateTime.of(
                            number(text, 0, 4),
                            number(text, 5, 2),
                            number(text, 8, 2),
                            number(text, 11, 2),
                            number(text, 14, 2),
                            number(text, 17, 2),
                            nanos,
                            offset)
                    .toInstant()
                    .truncatedTo(ChronoUnit.MICROS);
        } catch (DateTimeException notARealDateTime) {
            return null;
        }
    }

    // yyyy-mm-ddThh:mm:ss, the T in either case
    private static boolean isDateAndTime(String text) {
        for (int i = 0; i < SECONDS_END; i++) {
            char c = text.charAt(i);
            boolean valid = switch (i) {
                case 4, 7 -> c == '-';
                case 10 -> c == 'T' || c == 't';
                case 13, 16 -> c == ':';
                default -> isDigit(c);
            };
            if (!valid) {
                return false;
            }
        }
        return true;
    }

    // Z, or +hh:mm or -hh:mm, ending the text; null when it is neither or no real offset
    private static ZoneOffset offset(String text, int from) {
        int rest = text.length() - from;
        if (rest == 1 && (text.charAt(from) == 'Z' || text.charAt(from) == 'z')) {
            return ZoneOffset.UTC;
        }
        char sign = rest == 6 ? text.charAt(from) : 0;
        if ((sign != '+' && sign != '-')
                || !isDigit(text.charAt(from + 1))
                || !isDigit(text.charAt(from + 2))
                || text.charAt(from + 3) != ':'
                || !isDigit(text.charAt(from + 4))
                || !isDigit(text.charAt(from + 5))) {
            return null;
        }
        int hours = number(text, from + 1, 2);
        int minutes = number(text, from + 4, 2);
        try {
            return sign == '-'
                    ? ZoneOffset.ofHoursMinutes(-hours, -minutes)
                    : ZoneOffset.ofHoursMinutes(hours, minutes);
        } catch (DateTimeException notARealOffset) {
            return null;
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    // the decimal number of text[from .. from + digits), characters the caller has checked are digits
    private static int number(String text, int from, int digits) {
        int value = 0;
        for (int i = from; i < from + digits; i++) {
            value = value * 10 + text.charAt(i) - '0';
        }
        return value;
    }
}
