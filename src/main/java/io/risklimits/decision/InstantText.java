package io.risklimits.decision;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;

/**
 * Instants as text, exactly as {@link Instant#toString()} writes them: ISO 8601 in UTC, seconds always,
 * the fraction in as many groups of three digits as it needs. The decider writes several a decision (its
 * message, its audit row), and {@code Instant#toString} goes through a general formatter, a date-time
 * object and a string builder for each; for the years 0 to 9999 this writes the characters directly, and
 * leaves other years to {@code Instant#toString}.
 */
public final class InstantText {

    private static final long SECONDS_PER_DAY = 86_400;
    private static final long FIRST_SECOND =
            Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
    private static final long END_SECOND =
            Instant.parse("+10000-01-01T00:00:00Z").getEpochSecond();

    private InstantText() {}

    /** The text of an instant, the same as {@link Instant#toString()}; null for null. */
    public static String of(Instant instant) {
        if (instant == null) {
            return null;
        }
        long seconds = instant.getEpochSecond();
        if (seconds < FIRST_SECOND || seconds >= END_SECOND) {
            return instant.toString();
        }
        LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(seconds, SECONDS_PER_DAY));
        int secondOfDay = (int) Math.floorMod(seconds, SECONDS_PER_DAY);
        int nanos = instant.getNano();
        // milliseconds, microseconds or nanoseconds: the fewest groups of three digits that hold the nanos
        int fractionDigits = nanos == 0 ? 0 : nanos % 1_000_000 == 0 ? 3 : nanos % 1_000 == 0 ? 6 : 9;
        int fraction = fractionDigits == 3 ? nanos / 1_000_000 : fractionDigits == 6 ? nanos / 1_000 : nanos;
        byte[] text = new byte[fractionDigits == 0 ? 20 : 21 + fractionDigits];
        digits(text, 0, date.getYear(), 4);
        text[4] = '-';
        digits(text, 5, date.getMonthValue(), 2);
        text[7] = '-';
        digits(text, 8, date.getDayOfMonth(), 2);
        text[10] = 'T';
        digits(text, 11, secondOfDay / 3600, 2);
        text[13] = ':';
        digits(text, 14, secondOfDay / 60 % 60, 2);
        text[16] = ':';
        digits(text, 17, secondOfDay % 60, 2);
        if (fractionDigits > 0) {
            text[19] = '.';
            digits(text, 20, fraction, fractionDigits);
        }
        text[text.length - 1] = 'Z';
        return new String(text, StandardCharsets.ISO_8859_1);
    }

    // value in decimal, zero-padded to width, written at text[from..from + width)
    private static void digits(byte[] text, int from, int value, int width) {
        for (int at = from + width - 1; at >= from; at--) {
            text[at] = (byte) ('0' + value % 10);
            value /= 10;
        }
    }
}
