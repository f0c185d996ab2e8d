package io.risklimits.cli;

import io.risklimits.decision.Window;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Argument checks by the contract's rules, done while parsing: a bad value is a usage error (exit
 * code 2) before anything connects to PostgreSQL or Kafka.
 */
final class Converters {

    static final String ANY = "*";
    private static final Pattern CHANNEL = Pattern.compile("[A-Z0-9_]{1,32}");
    // UUID.fromString also takes forms like "1-2-3-4-5"; the contract means the canonical 8-4-4-4-12 text
    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d{1,9})([dhms])");

    private Converters() {}

    static final class Uuid implements ITypeConverter<UUID> {
        @Override
        public UUID convert(String value) {
            if (!UUID_TEXT.matcher(value).matches()) {
                throw new TypeConversionException("'" + value + "' is not a UUID");
            }
            return UUID.fromString(value);
        }
    }

    static final class Channel implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (!CHANNEL.matcher(value).matches()) {
                throw new TypeConversionException("'" + value + "' is not a channel: 1 to 32 of A-Z, 0-9, _");
            }
            return value;
        }
    }

    static final class ChannelOrAny implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (!value.equals(ANY) && !CHANNEL.matcher(value).matches()) {
                throw new TypeConversionException("'" + value + "' is not a channel (1 to 32 of A-Z, 0-9, _) or *");
            }
            return value;
        }
    }

    static final class DirectionOrAny implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (!value.equals("IN") && !value.equals("OUT") && !value.equals(ANY)) {
                throw new TypeConversionException("expected IN, OUT or * but was '" + value + "'");
            }
            return value;
        }
    }

    static final class WindowLabel implements ITypeConverter<Window> {
        @Override
        public Window convert(String value) {
            for (Window window : Window.values()) {
                if (window.label().equals(value)) {
                    return window;
                }
            }
            throw new TypeConversionException("expected txn, 24h, 7d, 30d, day, week or month but was '" + value + "'");
        }
    }

    static final class NonNegative implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                long number = Long.parseLong(value);
                if (number >= 0) {
                    return number;
                }
            } catch (NumberFormatException notANumber) {
                // answered below, with the same message as a negative number
            }
            throw new TypeConversionException("expected a whole number >= 0 but was '" + value + "'");
        }
    }

    /** The service's duration forms that operators use: 30d, 720h, 90m, 30s, or ISO-8601 (P30D). */
    static final class Length implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            Matcher shortForm = SHORT_DURATION.matcher(value);
            if (shortForm.matches()) {
                long amount = Long.parseLong(shortForm.group(1));
                return switch (shortForm.group(2)) {
                    case "d" -> Duration.ofDays(amount);
                    case "h" -> Duration.ofHours(amount);
                    case "m" -> Duration.ofMinutes(amount);
                    default -> Duration.ofSeconds(amount);
                };
            }
            try {
                return Duration.parse(value);
            } catch (DateTimeParseException notADuration) {
                throw new TypeConversionException("expected a duration like 30d, 720h or P30D but was '" + value + "'");
            }
        }
    }
}
