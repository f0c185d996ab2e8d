package io.risklimits.decision;

import io.risklimits.support.Gen;
import java.math.BigDecimal;
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
    static Gen<Event> events() {
        return authorizations().flatMap(event -> shapes(event).map(event::withShape));
    }

    /** Valid authorizations that carry no follow-up or hold field, not even a type. */
    static Gen<Event> authorizations() {
        Gen<UUID> uuids = anyUuids();
        Gen<String> channels = Gen.strings(CHANNEL_CHARS, 1, 32);
        // whole microseconds (what PostgreSQL keeps), from 1970 up to the allowed clock skew
        long latestSecond = NOW.plus(MAX_CLOCK_SKEW).getEpochSecond() - 1;
        Gen<Long> seconds = Gen.longs(0, latestSecond);
        Gen<Long> micros = Gen.longs(0, 999_999);
        Gen<Instant> instants = random -> Instant.ofEpochSecond(seconds.next(random), micros.next(random) * 1000);
        Gen<Direction> directions = Gen.of(Direction.values());
        Gen<Long> amounts = Gen.longs(1, TransactionEventReader.MAX_AMOUNT);
        Gen<ZoneOffset> offsets = offsets();
        return random -> {
            UUID dedupeId = uuids.next(random);
            UUID entityId = uuids.next(random);
            String channel = channels.next(random);
            Direction direction = directions.next(random);
            long amount = amounts.next(random);
            Instant occurredAt = instants.next(random);
            ZoneOffset offset = offsets.next(random);
            return new Event(
                    dedupeId,
                    entityId,
                    channel,
                    direction,
                    amount,
                    occurredAt,
                    text(occurredAt, offset),
                    Shape.AUTHORIZATION);
        };
    }

    /**
     * The follow-up and hold fields of a valid event: an authorization (named or not) with or without
     * hold_expires_at, a reversal naming its original in reverses, original or both, a capture with final
     * or without, an increment with or without hold_expires_at.
     */
    static Gen<Shape> shapes(Event event) {
        Gen<UUID> originals = anyUuids().filter(original -> !original.equals(event.dedupeId()));
        Gen<Optional<Instant>> holdExpiries = Gen.<Optional<Instant>>oneOf(
                Gen.just(Optional.<Instant>empty()),
                holdExpiries(event.occurredAt()).map(Optional::of));
        Gen<ZoneOffset> offsets = offsets();
        Gen<String> authorizationTypes = Gen.of("", "AUTHORIZATION");
        Gen<Shape> authorizations = random -> {
            String type = authorizationTypes.next(random);
            Optional<Instant> expiry = holdExpiries.next(random);
            ZoneOffset offset = offsets.next(random);
            return withExpiry(type.isEmpty() ? null : type, null, null, expiry, offset, null);
        };
        Gen<Integer> places = Gen.ints(0, 2);
        Gen<Shape> reversals = random -> {
            UUID original = originals.next(random);
            int where = places.next(random);
            return new Shape("REVERSAL", where == 1 ? null : original, where == 0 ? null : original, null, null, null);
        };
        Gen<Optional<Boolean>> finals = Gen.of(Optional.<Boolean>empty(), Optional.of(true), Optional.of(false));
        Gen<Shape> captures = random -> {
            UUID original = originals.next(random);
            Optional<Boolean> isFinal = finals.next(random);
            return new Shape("CAPTURE", null, original, null, null, isFinal.orElse(null));
        };
        Gen<Shape> increments = random -> {
            UUID original = originals.next(random);
            Optional<Instant> expiry = holdExpiries.next(random);
            ZoneOffset offset = offsets.next(random);
            return withExpiry("INCREMENT", null, original, expiry, offset, null);
        };
        return Gen.oneOf(authorizations, reversals, captures, increments);
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
    static Gen<Instant> holdExpiries(Instant occurredAt) {
        long micros = MAX_HOLD_TTL.toNanos() / 1_000;
        return Gen.<Long>oneOf(Gen.longs(1, micros), Gen.of(1L, 1_000_000L, micros - 1, micros))
                .map(after -> occurredAt.plusNanos(after * 1_000));
    }

    private static Gen<ZoneOffset> offsets() {
        return Gen.ints(-18 * 60, 18 * 60).map(minutes -> ZoneOffset.ofTotalSeconds(minutes * 60));
    }

    /** An RFC 3339 timestamp of the instant in the offset. */
    static String text(Instant instant, ZoneOffset offset) {
        return OffsetDateTime.ofInstant(instant, offset).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    }

    /** JSON text that breaks the rule of the field (null: the field is left out). */
    static Gen<String> breaking(String field) {
        Gen<String> specific = switch (field) {
            case "dedupe_id", "entity_id", "account_id" -> strings(text -> !isUuid(text));
            case "channel" -> strings(text -> !CHANNEL.matcher(text).matches());
            case "direction" -> strings(text -> !text.equals("IN") && !text.equals("OUT"));
            case "currency" -> strings(text -> !text.equals("USD"));
            case "amount" -> badAmounts();
            case "occurred_at" -> Gen.<String>oneOf(farFuture(), strings(text -> true));
            default -> throw new IllegalArgumentException(field);
        };
        return HostileValues.<String>frequencyOf(
                weighted(1, Gen.<String>just(null)), weighted(3, wrongTypes(field)), weighted(8, specific));
    }

    /**
     * JSON text that breaks the rule of a follow-up or hold field for the event's type, never leaving it
     * valid nor moving the fault to another field: a field the type may not carry is given a value, a
     * required one is left out or broken, an optional one is broken (an original a reversal names in
     * original alone is not left out: that makes reverses the missing field).
     */
    static Gen<String> breakingFollowUp(String field, Event event) {
        Shape shape = event.shape();
        EventType type = shape.eventType();
        Gen<String> own = Gen.just(quoted(event.dedupeId().toString()));
        Gen<String> notUuids =
                Gen.<String>oneOf(shortStrings(text -> !isUuid(text)), Gen.of("true", "7", "{}", "[]", "\"\""));
        Gen<String> anyValue = Gen.<String>oneOf(
                randomUuids().map(id -> quoted(id.toString())),
                Gen.of("true", "false", "0", "{}", "[]"),
                Gen.just(quoted(event.occurredAt().plusSeconds(60).toString())));
        Gen<String> leftOut = Gen.<String>oneOf(Gen.<String>just(null), Gen.just("null"));
        return switch (field) {
            case "type" ->
                Gen.<String>oneOf(
                        Gen.of("\"EXPIRY\"", "\"capture\"", "\"REVERSAL \"", "1", "true", "{}", "[]"),
                        shortStrings(text -> !List.of("AUTHORIZATION", "REVERSAL", "CAPTURE", "INCREMENT")
                                .contains(text)));
            case "reverses" -> {
                if (type != EventType.REVERSAL) {
                    yield anyValue;
                }
                yield shape.original() == null
                        ? Gen.<String>oneOf(own, notUuids, leftOut)
                        : Gen.<String>oneOf(own, notUuids);
            }
            case "original" -> {
                if (type == EventType.AUTHORIZATION) {
                    yield anyValue;
                }
                if (type != EventType.REVERSAL) {
                    yield Gen.<String>oneOf(own, notUuids, leftOut);
                }
                yield shape.reverses() == null
                        ? Gen.<String>oneOf(own, notUuids)
                        : Gen.<String>oneOf(own, notUuids, randomUuids().map(id -> quoted(id.toString())));
            }
            case "hold_expires_at" -> {
                if (type != EventType.AUTHORIZATION && type != EventType.INCREMENT) {
                    yield anyValue;
                }
                Instant occurredAt = event.occurredAt();
                yield Gen.<String>oneOf(
                        Gen.of(
                                "\"tomorrow\"",
                                "\"2026-13-01T00:00:00Z\"",
                                "\"2026-03-01 12:00:00Z\"",
                                "\"\"",
                                "1772366400",
                                "true",
                                "{}"),
                        Gen.longs(0, Duration.ofDays(400).toSeconds())
                                .map(before ->
                                        quoted(occurredAt.minusSeconds(before).toString())),
                        Gen.longs(1, Duration.ofDays(400).toNanos() / 1_000)
                                .map(beyond -> quoted(occurredAt
                                        .plus(MAX_HOLD_TTL)
                                        .plusNanos(beyond * 1_000)
                                        .toString())));
            }
            case "final" ->
                type != EventType.CAPTURE
                        ? Gen.<String>oneOf(Gen.of("true", "false"), anyValue)
                        : Gen.<String>oneOf(
                                Gen.of("\"true\"", "\"false\"", "1", "0", "{}", "[]"), shortStrings(text -> true));
            default -> throw new IllegalArgumentException(field);
        };
    }

    /** Wrong JSON types: a string where a number belongs, and numbers, booleans, arrays and objects elsewhere. */
    private static Gen<String> wrongTypes(String field) {
        Gen<String> other = Gen.of("null", "true", "false", "[]", "{}", "[\"IN\"]", "{\"a\":1}", "0");
        return field.equals("amount")
                ? Gen.<String>oneOf(other.filter(text -> !text.equals("0")), strings(text -> true))
                : Gen.<String>oneOf(other, Gen.longs().map(String::valueOf));
    }

    /** Strings with control characters, CR/LF, any Unicode, or 1 MiB long, as JSON string literals. */
    private static Gen<String> strings(java.util.function.Predicate<String> breaksTheRule) {
        Gen<String> controls = Gen.strings(Gen.chars('\u0000', '\u001f'), 1, 8);
        Gen<String> anyUnicode = Gen.strings(Gen.anyChar(), 0, 40);
        Gen<String> injected = random -> anyUnicode.next(random) + controls.next(random) + anyUnicode.next(random);
        Gen<String> crLf = Gen.of("USD\r\nX-Injected: 1", "IN\n", "OUT\r", "\r\n", "CARD\u2028", "\u0085");
        Gen<String> huge = Gen.of(ONE_MEBIBYTE, ONE_MEBIBYTE + "\r\n", "\n" + ONE_MEBIBYTE);
        return HostileValues.<String>frequencyOf(
                        weighted(5, anyUnicode), weighted(5, injected), weighted(2, crLf), weighted(1, huge))
                .filter(breaksTheRule)
                .map(HostileValues::quoted);
    }

    /**
     * Strings with control characters or any Unicode, as JSON string literals, none of them long: the
     * follow-up fields' own hostile text (the long ones are the other fields').
     */
    private static Gen<String> shortStrings(java.util.function.Predicate<String> breaksTheRule) {
        Gen<String> anyUnicode = Gen.strings(Gen.anyChar(), 0, 40);
        Gen<String> controls = Gen.strings(Gen.chars('\u0000', '\u001f'), 1, 8);
        Gen<String> withControls = random -> anyUnicode.next(random) + controls.next(random);
        return Gen.<String>oneOf(anyUnicode, withControls).filter(breaksTheRule).map(HostileValues::quoted);
    }

    private static Gen<String> badAmounts() {
        Gen<String> outOfRange = Gen.<String>oneOf(
                Gen.longs(Long.MIN_VALUE, 0).map(String::valueOf),
                Gen.longs(TransactionEventReader.MAX_AMOUNT + 1, Long.MAX_VALUE).map(String::valueOf),
                Gen.of("9223372036854775808", "18446744073709551616", "18446744073709551617", "-0"),
                // up to a thousand digits (the parser's number limit) and a little beyond it
                Gen.strings("0123456789", 17, 1100).map(digits -> "9" + digits));
        Gen<Long> wholes = Gen.longs(1, 1000);
        Gen<Integer> fractions = Gen.ints(1, 999);
        Gen<String> notIntegers = Gen.<String>oneOf(
                Gen.of("1e400", "-1e400", "1e-400", "1E3", "1e+3", "1.0", "100.00", "1.5e2"),
                hundredths().filter(value -> value != Math.rint(value)).map(String::valueOf),
                random -> wholes.next(random) + "." + fractions.next(random));
        return Gen.oneOf(outOfRange, notIntegers);
    }

    /**
     * Doubles of two decimals at most, either sign, their size spread evenly over the orders of magnitude
     * from a hundredth up to 10^16 (beyond 2^52 a double has no fraction left).
     */
    private static Gen<Double> hundredths() {
        Gen<Long> unscaled = Gen.magnitudes(0, 999_999_999_999_999_999L);
        return random -> BigDecimal.valueOf(random.nextBoolean() ? unscaled.next(random) : -unscaled.next(random), 2)
                .doubleValue();
    }

    private static Gen<String> farFuture() {
        long from = NOW.plus(MAX_CLOCK_SKEW).getEpochSecond() + 1;
        long to = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();
        return Gen.longs(from, to)
                .map(seconds -> quoted(Instant.ofEpochSecond(seconds).toString()));
    }

    /** Any UUID: 128 random bits, version and variant bits included. */
    private static Gen<UUID> anyUuids() {
        return random -> new UUID(random.nextLong(), random.nextLong());
    }

    /** Random (version 4) UUIDs, drawn from the property's random source so that its seed replays them. */
    static Gen<UUID> randomUuids() {
        return random -> new UUID(
                (random.nextLong() & ~0xF000L) | 0x4000L,
                (random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L);
    }

    /**
     * Any UTF-16 code unit except the surrogates, the noncharacters (U+FDD0 to U+FDEF, U+FFFE, U+FFFF) and
     * the private-use characters (U+E000 to U+F8FF): the characters of a string when no others are named.
     */
    static Gen<Character> textChars() {
        return Gen.anyChar()
                .filter(c -> !Character.isSurrogate(c)
                        && !(c >= '\uFDD0' && c <= '\uFDEF')
                        && c < '\uFFFE'
                        && !(c >= '\uE000' && c <= '\uF8FF'));
    }

    /** A generator with its weight in a {@link #frequencyOf} choice. */
    private record Weighted<T>(int weight, Gen<? extends T> values) {}

    private static <T> Weighted<T> weighted(int weight, Gen<? extends T> values) {
        return new Weighted<>(weight, values);
    }

    /** A value of one of the generators, each drawn in proportion to its weight. */
    @SafeVarargs
    private static <T> Gen<T> frequencyOf(Weighted<? extends T>... choices) {
        List<Weighted<? extends T>> weighted = List.of(choices);
        int total = weighted.stream().mapToInt(Weighted::weight).sum();
        return random -> {
            int draw = random.nextInt(total);
            for (Weighted<? extends T> choice : weighted) {
                draw -= choice.weight();
                if (draw < 0) {
                    return choice.values().next(random);
                }
            }
            throw new IllegalStateException("no choice for the draw " + draw);
        };
    }

    static boolean isUuid(String text) {
        return text.length() == 36 && UUID_TEXT.matcher(text).matches();
    }

    static String quoted(String text) {
        return JSON.writeValueAsString(text);
    }
}
