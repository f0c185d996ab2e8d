package io.risklimits.decision;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import tools.jackson.databind.json.JsonMapper;

/**
 * Generators for the reader's properties: valid events, and for each field values that break its
 * rule. Field values are JSON text, so that numbers the JSON writer cannot produce (1e400, 2^64,
 * a thousand digits) can be written too; null means the field is left out.
 */
final class HostileValues {

    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    static final Duration MAX_CLOCK_SKEW = Duration.ofMinutes(5);
    static final List<String> FIELDS =
            List.of("dedupe_id", "entity_id", "channel", "direction", "amount", "currency", "occurred_at");

    static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    static final Pattern CHANNEL = Pattern.compile("[A-Z0-9_]{1,32}");

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ONE_MEBIBYTE = "x".repeat(1024 * 1024);
    private static final String CHANNEL_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";

    private HostileValues() {}

    /** A valid event as generated: the reader must return exactly these fields. */
    record Event(
            UUID dedupeId,
            UUID entityId,
            String channel,
            Direction direction,
            long amount,
            Instant occurredAt,
            String occurredAtText) {

        String field(String name) {
            return switch (name) {
                case "dedupe_id" -> quoted(dedupeId.toString());
                case "entity_id" -> quoted(entityId.toString());
                case "channel" -> quoted(channel);
                case "direction" -> quoted(direction.name());
                case "amount" -> Long.toString(amount);
                case "currency" -> quoted("USD");
                case "occurred_at" -> quoted(occurredAtText);
                default -> throw new IllegalArgumentException(name);
            };
        }

        /** The event as JSON, with one field's text replaced (null: left out). */
        String withField(String name, String text) {
            StringBuilder json = new StringBuilder("{");
            for (String field : FIELDS) {
                String value = field.equals(name) ? text : field(field);
                if (value != null) {
                    json.append(json.length() > 1 ? "," : "")
                            .append('"')
                            .append(field)
                            .append("\":")
                            .append(value);
                }
            }
            return json.append('}').toString();
        }

        String json() {
            return withField("", null);
        }
    }

    static Arbitrary<Event> events() {
        Arbitrary<UUID> uuids = Arbitraries.randomValue(random -> new UUID(random.nextLong(), random.nextLong()));
        Arbitrary<String> channels =
                Arbitraries.strings().withChars(CHANNEL_CHARS).ofMinLength(1).ofMaxLength(32);
        // whole microseconds (what PostgreSQL keeps), from 1970 up to the allowed clock skew
        long latestSecond = NOW.plus(MAX_CLOCK_SKEW).getEpochSecond() - 1;
        Arbitrary<Instant> instants = Combinators.combine(
                        Arbitraries.longs().between(0, latestSecond),
                        Arbitraries.longs().between(0, 999_999))
                .as((seconds, micros) -> Instant.ofEpochSecond(seconds, micros * 1000));
        Arbitrary<ZoneOffset> offsets = Arbitraries.integers()
                .between(-18 * 60, 18 * 60)
                .map(minutes -> ZoneOffset.ofTotalSeconds(minutes * 60));
        return Combinators.combine(
                        uuids,
                        uuids,
                        channels,
                        Arbitraries.of(Direction.class),
                        Arbitraries.longs().between(1, TransactionEventReader.MAX_AMOUNT),
                        instants,
                        offsets)
                .as((dedupeId, entityId, channel, direction, amount, occurredAt, offset) -> new Event(
                        dedupeId,
                        entityId,
                        channel,
                        direction,
                        amount,
                        occurredAt,
                        OffsetDateTime.ofInstant(occurredAt, offset).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME)));
    }

    /** JSON text that breaks the rule of the field (null: the field is left out). */
    static Arbitrary<String> breaking(String field) {
        Arbitrary<String> specific = switch (field) {
            case "dedupe_id", "entity_id", "account_id" -> strings(text -> !isUuid(text));
            case "channel" -> strings(text -> !CHANNEL.matcher(text).matches());
            case "direction" -> strings(text -> !text.equals("IN") && !text.equals("OUT"));
            case "currency" -> strings(text -> !text.equals("USD"));
            case "amount" -> badAmounts();
            case "occurred_at" -> Arbitraries.<String>oneOf(farFuture(), strings(text -> true));
            default -> throw new IllegalArgumentException(field);
        };
        return Arbitraries.<String>frequencyOf(
                Tuple.of(1, Arbitraries.just((String) null)), Tuple.of(3, wrongTypes(field)), Tuple.of(8, specific));
    }

    /** Wrong JSON types: a string where a number belongs, and numbers, booleans, arrays and objects elsewhere. */
    private static Arbitrary<String> wrongTypes(String field) {
        Arbitrary<String> other = Arbitraries.of("null", "true", "false", "[]", "{}", "[\"IN\"]", "{\"a\":1}", "0");
        return field.equals("amount")
                ? Arbitraries.<String>oneOf(other.filter(text -> !text.equals("0")), strings(text -> true))
                : Arbitraries.<String>oneOf(other, Arbitraries.longs().map(String::valueOf));
    }

    /** Strings with control characters, CR/LF, any Unicode, or 1 MiB long, as JSON string literals. */
    private static Arbitrary<String> strings(java.util.function.Predicate<String> breaksTheRule) {
        Arbitrary<String> controls = Arbitraries.strings()
                .withCharRange('\u0000', '\u001f')
                .ofMinLength(1)
                .ofMaxLength(8);
        Arbitrary<String> anyUnicode = Arbitraries.strings().all().ofMaxLength(40);
        Arbitrary<String> injected =
                Combinators.combine(anyUnicode, controls, anyUnicode).as((a, b, c) -> a + b + c);
        Arbitrary<String> crLf =
                Arbitraries.of("USD\r\nX-Injected: 1", "IN\n", "OUT\r", "\r\n", "CARD\u2028", "\u0085");
        Arbitrary<String> huge = Arbitraries.of(ONE_MEBIBYTE, ONE_MEBIBYTE + "\r\n", "\n" + ONE_MEBIBYTE);
        return Arbitraries.<String>frequencyOf(
                        Tuple.of(5, anyUnicode), Tuple.of(5, injected), Tuple.of(2, crLf), Tuple.of(1, huge))
                .filter(breaksTheRule)
                .map(HostileValues::quoted);
    }

    private static Arbitrary<String> badAmounts() {
        Arbitrary<String> outOfRange = Arbitraries.<String>oneOf(
                Arbitraries.longs().lessOrEqual(0).map(String::valueOf),
                Arbitraries.longs()
                        .greaterOrEqual(TransactionEventReader.MAX_AMOUNT + 1)
                        .map(String::valueOf),
                Arbitraries.of("9223372036854775808", "18446744073709551616", "18446744073709551617", "-0"),
                // up to a thousand digits (the parser's number limit) and a little beyond it
                Arbitraries.strings()
                        .numeric()
                        .ofMinLength(17)
                        .ofMaxLength(1100)
                        .map(digits -> "9" + digits));
        Arbitrary<String> notIntegers = Arbitraries.<String>oneOf(
                Arbitraries.of("1e400", "-1e400", "1e-400", "1E3", "1e+3", "1.0", "100.00", "1.5e2"),
                Arbitraries.doubles().filter(value -> value != Math.rint(value)).map(String::valueOf),
                Combinators.combine(
                                Arbitraries.longs().between(1, 1000),
                                Arbitraries.integers().between(1, 999))
                        .as((whole, fraction) -> whole + "." + fraction));
        return Arbitraries.oneOf(outOfRange, notIntegers);
    }

    private static Arbitrary<String> farFuture() {
        long from = NOW.plus(MAX_CLOCK_SKEW).getEpochSecond() + 1;
        long to = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();
        return Arbitraries.longs()
                .between(from, to)
                .map(seconds -> quoted(Instant.ofEpochSecond(seconds).toString()));
    }

    static boolean isUuid(String text) {
        return text.length() == 36 && UUID_TEXT.matcher(text).matches();
    }

    static String quoted(String text) {
        return JSON.writeValueAsString(text);
    }
}
