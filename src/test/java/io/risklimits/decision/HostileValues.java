package io.risklimits.decision;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import tools.jackson.databind.json.JsonMapper;

/**
 * Generators for the reader's properties: valid events of every type (authorizations, with a hold's expiry
 * or without, reversals, captures and increments with their follow-up fields), and for each field values
 * that break its rule. Field values are JSON text, so that numbers the JSON writer cannot produce (1e400,
 * 2^64, a thousand digits) can be written too; null means the field is left out.
 */
final class HostileValues {

    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    static final Duration MAX_CLOCK_SKEW = Duration.ofMinutes(5);
    static final Duration MAX_HOLD_TTL = TransactionEventReader.DEFAULT_MAX_HOLD_TTL;
    static final List<String> FIELDS =
            List.of("dedupe_id", "entity_id", "channel", "direction", "amount", "currency", "occurred_at");
    /** The follow-up and hold fields, which an event carries by its type. */
    static final List<String> FOLLOW_UP_FIELDS = List.of("type", "reverses", "original", "hold_expires_at", "final");

    static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    static final Pattern CHANNEL = Pattern.compile("[A-Z0-9_]{1,32}");

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ONE_MEBIBYTE = "x".repeat(1024 * 1024);
    private static final String CHANNEL_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";

    private HostileValues() {}

    /**
     * The follow-up and hold fields of a valid event, each null when absent: type (absent reads as an
     * authorization), reverses and original (a reversal names its original in either or in both, equal),
     * hold_expires_at (an authorization's or an increment's, after occurred_at and at most the max hold
     * ttl after it) and final (a capture's).
     */
    record Shape(
            String type,
            UUID reverses,
            UUID original,
            Instant holdExpiresAt,
            String holdExpiresAtText,
            Boolean isFinal) {

        static final Shape AUTHORIZATION = new Shape(null, null, null, null, null, null);

        EventType eventType() {
            return type == null ? EventType.AUTHORIZATION : EventType.valueOf(type);
        }
    }

    /** A valid event as generated: the reader must return exactly these fields. */
    record Event(
            UUID dedupeId,
            UUID entityId,
            String channel,
            Direction direction,
            long amount,
            Instant occurredAt,
            String occurredAtText,
            Shape shape) {

        String field(String name) {
            return switch (name) {
                case "dedupe_id" -> quoted(dedupeId.toString());
                case "entity_id" -> quoted(entityId.toString());
                case "channel" -> quoted(channel);
                case "direction" -> quoted(direction.name());
                case "amount" -> Long.toString(amount);
                case "currency" -> quoted("USD");
                case "occurred_at" -> quoted(occurredAtText);
                case "type" -> shape.type() == null ? null : quoted(shape.type());
                case "reverses" ->
                    shape.reverses() == null ? null : quoted(shape.reverses().toString());
                case "original" ->
                    shape.original() == null ? null : quoted(shape.original().toString());
                case "hold_expires_at" -> shape.holdExpiresAtText() == null ? null : quoted(shape.holdExpiresAtText());
                case "final" -> shape.isFinal() == null ? null : shape.isFinal().toString();
                default -> throw new IllegalArgumentException(name);
            };
        }

        /** The event as JSON, with one field's text replaced or added (null: left out). */
        String withField(String name, String text) {
            StringBuilder json = new StringBuilder("{");
            for (String field :
                    Stream.concat(FIELDS.stream(), FOLLOW_UP_FIELDS.stream()).toList()) {
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

        Event withShape(Shape other) {
            return new Event(dedupeId, entityId, channel, direction, amount, occurredAt, occurredAtText, other);
        }
    }

    /** Valid events of every type, with the follow-up and hold fields of their type. */
    static Arbitrary<Event> events() {
        return authorizations().flatMap(event -> shapes(event).map(event::withShape));
    }

    /** Valid authorizations that carry no follow-up or hold field, not even a type. */
    static Arbitrary<Event> authorizations() {
        Arbitrary<UUID> uuids = Arbitraries.randomValue(random -> new UUID(random.nextLong(), random.nextLong()));
        Arbitrary<String> channels =
                Arbitraries.strings().withChars(CHANNEL_CHARS).ofMinLength(1).ofMaxLength(32);
        // whole microseconds (what PostgreSQL keeps), from 1970 up to the allowed clock skew
        long latestSecond = NOW.plus(MAX_CLOCK_SKEW).getEpochSecond() - 1;
        Arbitrary<Instant> instants = Combinators.combine(
                        Arbitraries.longs().between(0, latestSecond),
                        Arbitraries.longs().between(0, 999_999))
                .as((seconds, micros) -> Instant.ofEpochSecond(seconds, micros * 1000));
        Arbitrary<ZoneOffset> offsets = offsets();
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
                        text(occurredAt, offset),
                        Shape.AUTHORIZATION));
    }

    /**
     * The follow-up and hold fields of a valid event: an authorization (named or not) with or without
     * hold_expires_at, a reversal naming its original in reverses, original or both, a capture with final
     * or without, an increment with or without hold_expires_at.
     */
    static Arbitrary<Shape> shapes(Event event) {
        Arbitrary<UUID> originals = Arbitraries.randomValue(random -> new UUID(random.nextLong(), random.nextLong()))
                .filter(original -> !original.equals(event.dedupeId()));
        Arbitrary<Optional<Instant>> holdExpiries = Arbitraries.oneOf(
                Arbitraries.just(Optional.empty()),
                holdExpiries(event.occurredAt()).map(Optional::of));
        Arbitrary<ZoneOffset> offsets = offsets();
        Arbitrary<Shape> authorizations = Combinators.combine(
                        Arbitraries.of("", "AUTHORIZATION"), holdExpiries, offsets)
                .as((type, expiry, offset) ->
                        withExpiry(type.isEmpty() ? null : type, null, null, expiry, offset, null));
        Arbitrary<Shape> reversals = Combinators.combine(
                        originals, Arbitraries.integers().between(0, 2))
                .as((original, where) -> new Shape(
                        "REVERSAL", where == 1 ? null : original, where == 0 ? null : original, null, null, null));
        Arbitrary<Shape> captures = Combinators.combine(
                        originals, Arbitraries.of(Optional.<Boolean>empty(), Optional.of(true), Optional.of(false)))
                .as((original, isFinal) -> new Shape("CAPTURE", null, original, null, null, isFinal.orElse(null)));
        Arbitrary<Shape> increments = Combinators.combine(originals, holdExpiries, offsets)
                .as((original, expiry, offset) -> withExpiry("INCREMENT", null, original, expiry, offset, null));
        return Arbitraries.oneOf(authorizations, reversals, captures, increments);
    }

    private static Shape withExpiry(
            String type, UUID reverses, UUID original, Optional<Instant> expiry, ZoneOffset offset, Boolean isFinal) {
        return new Shape(
                type,
                reverses,
                original,
                expiry.orElse(null),
                expiry.map(instant -> text(instant, offset)).orElse(null),
                isFinal);
    }

    /** Instants after occurred_at and at most the max hold ttl after it, to the microsecond. */
    static Arbitrary<Instant> holdExpiries(Instant occurredAt) {
        long micros = MAX_HOLD_TTL.toNanos() / 1_000;
        return Arbitraries.oneOf(
                        Arbitraries.longs().between(1, micros), Arbitraries.of(1L, 1_000_000L, micros - 1, micros))
                .map(after -> occurredAt.plusNanos(after * 1_000));
    }

    private static Arbitrary<ZoneOffset> offsets() {
        return Arbitraries.integers()
                .between(-18 * 60, 18 * 60)
                .map(minutes -> ZoneOffset.ofTotalSeconds(minutes * 60));
    }

    /** An RFC 3339 timestamp of the instant in the offset. */
    static String text(Instant instant, ZoneOffset offset) {
        return OffsetDateTime.ofInstant(instant, offset).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
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

    /**
     * JSON text that breaks the rule of a follow-up or hold field for the event's type, never leaving it
     * valid nor moving the fault to another field: a field the type may not carry is given a value, a
     * required one is left out or broken, an optional one is broken (an original a reversal names in
     * original alone is not left out: that makes reverses the missing field).
     */
    static Arbitrary<String> breakingFollowUp(String field, Event event) {
        Shape shape = event.shape();
        EventType type = shape.eventType();
        Arbitrary<String> own = Arbitraries.just(quoted(event.dedupeId().toString()));
        Arbitrary<String> notUuids = Arbitraries.<String>oneOf(
                shortStrings(text -> !isUuid(text)), Arbitraries.of("true", "7", "{}", "[]", "\"\""));
        Arbitrary<String> anyValue = Arbitraries.<String>oneOf(
                Arbitraries.create(UUID::randomUUID).map(id -> quoted(id.toString())),
                Arbitraries.of("true", "false", "0", "{}", "[]"),
                Arbitraries.just(quoted(event.occurredAt().plusSeconds(60).toString())));
        Arbitrary<String> leftOut = Arbitraries.oneOf(Arbitraries.just(null), Arbitraries.just("null"));
        return switch (field) {
            case "type" ->
                Arbitraries.<String>oneOf(
                        Arbitraries.of("\"EXPIRY\"", "\"capture\"", "\"REVERSAL \"", "1", "true", "{}", "[]"),
                        shortStrings(text -> !List.of("AUTHORIZATION", "REVERSAL", "CAPTURE", "INCREMENT")
                                .contains(text)));
            case "reverses" -> {
                if (type != EventType.REVERSAL) {
                    yield anyValue;
                }
                yield shape.original() == null
                        ? Arbitraries.<String>oneOf(own, notUuids, leftOut)
                        : Arbitraries.<String>oneOf(own, notUuids);
            }
            case "original" -> {
                if (type == EventType.AUTHORIZATION) {
                    yield anyValue;
                }
                if (type != EventType.REVERSAL) {
                    yield Arbitraries.<String>oneOf(own, notUuids, leftOut);
                }
                yield shape.reverses() == null
                        ? Arbitraries.<String>oneOf(own, notUuids)
                        : Arbitraries.<String>oneOf(
                                own,
                                notUuids,
                                Arbitraries.create(UUID::randomUUID).map(id -> quoted(id.toString())));
            }
            case "hold_expires_at" -> {
                if (type != EventType.AUTHORIZATION && type != EventType.INCREMENT) {
                    yield anyValue;
                }
                Instant occurredAt = event.occurredAt();
                yield Arbitraries.<String>oneOf(
                        Arbitraries.of(
                                "\"tomorrow\"",
                                "\"2026-13-01T00:00:00Z\"",
                                "\"2026-03-01 12:00:00Z\"",
                                "\"\"",
                                "1772366400",
                                "true",
                                "{}"),
                        Arbitraries.longs()
                                .between(0, Duration.ofDays(400).toSeconds())
                                .map(before ->
                                        quoted(occurredAt.minusSeconds(before).toString())),
                        Arbitraries.longs()
                                .between(1, Duration.ofDays(400).toNanos() / 1_000)
                                .map(beyond -> quoted(occurredAt
                                        .plus(MAX_HOLD_TTL)
                                        .plusNanos(beyond * 1_000)
                                        .toString())));
            }
            case "final" ->
                type != EventType.CAPTURE
                        ? Arbitraries.<String>oneOf(Arbitraries.of("true", "false"), anyValue)
                        : Arbitraries.<String>oneOf(
                                Arbitraries.of("\"true\"", "\"false\"", "1", "0", "{}", "[]"),
                                shortStrings(text -> true));
            default -> throw new IllegalArgumentException(field);
        };
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

    /**
     * Strings with control characters or any Unicode, as JSON string literals, none of them long: the
     * follow-up fields' own hostile text (the long ones are the other fields').
     */
    private static Arbitrary<String> shortStrings(java.util.function.Predicate<String> breaksTheRule) {
        Arbitrary<String> anyUnicode = Arbitraries.strings().all().ofMaxLength(40);
        Arbitrary<String> controls = Arbitraries.strings()
                .withCharRange('\u0000', '\u001f')
                .ofMinLength(1)
                .ofMaxLength(8);
        return Arbitraries.<String>oneOf(
                        anyUnicode, Combinators.combine(anyUnicode, controls).as((a, b) -> a + b))
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
