package io.risklimits.decision;

import static io.risklimits.decision.HostileValues.MAX_CLOCK_SKEW;
import static io.risklimits.decision.HostileValues.NOW;
import static io.risklimits.support.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.Gen;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Properties of the reader over random and hostile input, for events of every type (authorizations,
 * holds, reversals, captures and increments): a valid event is read back field for field, the follow-up
 * and hold fields included; an event with one field broken is INVALID naming that field (or unreadable,
 * a dead letter) and never valid; the follow-up and hold fields in any combination are valid only in the
 * contract's shapes; arbitrary bytes and deep nesting never throw; and no problem or error message carries
 * a control character into a log line or a header. Tries are bounded so the whole class runs in a few
 * seconds.
 */
class TransactionEventReaderPropertiesTest {

    private final TransactionEventReader reader =
            new TransactionEventReader("USD", MAX_CLOCK_SKEW, Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void aValidEventIsReadWithEveryFieldAsSent() {
        forAll(300, events(), sent -> {
            ReadResult result = read(sent.json());

            assertThat(result).isInstanceOf(ReadResult.Valid.class);
            TransactionEvent event = ((ReadResult.Valid) result).event();
            assertThat(event.dedupeId()).isEqualTo(sent.dedupeId());
            assertThat(event.businessKey())
                    .isEqualTo(new BusinessKey(sent.entityId(), sent.channel(), sent.direction()));
            assertThat(event.amount()).isEqualTo(sent.amount());
            assertThat(event.currency()).isEqualTo("USD");
            assertThat(event.occurredAt()).isEqualTo(sent.occurredAt());
            HostileValues.Shape shape = sent.shape();
            assertThat(event.type()).isEqualTo(shape.eventType());
            assertThat(event.reverses()).isEqualTo(shape.reverses());
            assertThat(event.original()).isEqualTo(shape.original());
            assertThat(event.originalId()).isEqualTo(shape.reverses() != null ? shape.reverses() : shape.original());
            assertThat(event.holdExpiresAt()).isEqualTo(shape.holdExpiresAt());
            assertThat(event.isFinal()).isEqualTo(shape.isFinal() == null || shape.isFinal());
        });
    }

    /**
     * The reader takes a timestamp's fields from its pattern's groups; whatever it accepts, and the
     * instant it reads, must be what java.time's ISO parser (strict, as the contract's RFC 3339 subset
     * needs) makes of the same text, out-of-range fields included; an instant before the year 1 is
     * INVALID, as one beyond the clock skew is.
     */
    @Test
    void aTimestampIsReadAsJavaTimesStrictIsoParserReadsIt() {
        forAll(2000, timestamps(), occurredAt -> {
            Instant expected;
            try {
                expected = OffsetDateTime.parse(
                                occurredAt.toUpperCase(java.util.Locale.ROOT), DateTimeFormatter.ISO_OFFSET_DATE_TIME)
                        .toInstant()
                        .truncatedTo(ChronoUnit.MICROS);
            } catch (DateTimeParseException notATimestamp) {
                expected = null;
            }
            String json = "{\"dedupe_id\":\"" + UUID.randomUUID() + "\",\"entity_id\":\"" + UUID.randomUUID()
                    + "\",\"channel\":\"CARD\",\"direction\":\"OUT\",\"amount\":100,\"currency\":\"USD\","
                    + "\"occurred_at\":\"" + occurredAt + "\"}";

            ReadResult result = reader.read(json.getBytes(StandardCharsets.UTF_8));

            if (expected == null
                    || expected.isBefore(TransactionEventReader.EARLIEST_TIMESTAMP)
                    || expected.isAfter(NOW.plus(MAX_CLOCK_SKEW))) {
                assertThat(result).isInstanceOf(ReadResult.Invalid.class);
            } else {
                assertThat(result).isInstanceOf(ReadResult.Valid.class);
                assertThat(((ReadResult.Valid) result).event().occurredAt()).isEqualTo(expected);
            }
        });
    }

    Gen<String> timestamps() {
        // half the draws from the low end of each field's range, so that a fair share of the timestamps
        // is valid in every field (a year after the clock is as INVALID as a 13th month)
        Gen<String> twoDigits = Gen.oneOf(Gen.ints(0, 19), Gen.ints(0, 99)).map(n -> String.format("%02d", n));
        Gen<String> year = Gen.oneOf(Gen.ints(0, 1999), Gen.ints(0, 9999)).map(n -> String.format("%04d", n));
        Gen<String> fraction = Gen.strings("0123456789", 0, 10).map(digits -> digits.isEmpty() ? "" : "." + digits);
        Gen<String> signs = Gen.of("+", "-");
        Gen<String> offset = Gen.<String>oneOf(
                Gen.of("Z", "z", "+00:00", "-00:00"),
                random -> signs.next(random) + twoDigits.next(random) + ":" + twoDigits.next(random));
        Gen<String> separator = Gen.of("T", "t");
        return random -> year.next(random) + "-" + twoDigits.next(random) + "-" + twoDigits.next(random)
                + separator.next(random) + twoDigits.next(random) + ":" + twoDigits.next(random) + ":"
                + twoDigits.next(random) + fraction.next(random) + offset.next(random);
    }

    @Test
    void anEventWithOneBrokenFieldIsNeverValid() {
        forAll(600, brokenEvents(), broken -> {
            ReadResult result = read(broken.json());

            assertThat(result).isNotInstanceOf(ReadResult.Valid.class);
            if (broken.field().equals("dedupe_id")) {
                assertThat(result).isInstanceOf(ReadResult.Unreadable.class);
            } else if (result instanceof ReadResult.Invalid invalid) {
                assertThat(invalid.dedupeId()).isEqualTo(broken.event().dedupeId());
                assertThat(invalid.errors()).extracting(FieldError::field).containsExactly(broken.field());
            } else {
                // only a number beyond the parser's limit of 1000 characters is a dead letter despite its dedupe_id
                assertThat(broken.field()).isEqualTo("amount");
                assertThat(broken.text().length()).isGreaterThan(1000);
            }
            assertSafeToLog(result);
        });
    }

    @Test
    void arbitraryBytesNeverThrowAndAreNeverValid() {
        forAll(500, noise(), value -> {
            ReadResult result = reader.read(value);

            assertThat(result).isNotInstanceOf(ReadResult.Valid.class);
            assertSafeToLog(result);
        });
    }

    /** Bytes of a valid event with a few changed: valid only when the result still obeys every rule. */
    @Test
    void aDamagedEventIsValidOnlyIfItStillObeysEveryRule() {
        forAll(500, damagedEvents(), value -> {
            ReadResult result = reader.read(value);

            if (result instanceof ReadResult.Valid valid) {
                assertObeysTheContract(valid.event());
            }
            assertSafeToLog(result);
        });
    }

    @Test
    void deepNestingNeverThrowsAndBeyondTheLimitIsUnreadable() {
        forAll(200, nestings(), nesting -> {
            HostileValues.Event event = nesting.event();
            int depth = nesting.depth();
            boolean objects = nesting.objects();
            String open = objects ? "{\"a\":" : "[";
            String close = objects ? "}" : "]";
            String nested = open.repeat(depth) + "1" + close.repeat(depth);
            String json = event.json();

            ReadResult alone = read(nested);
            ReadResult inside = read(json.substring(0, json.length() - 1) + ",\"deep\":" + nested + "}");

            assertThat(alone).isInstanceOf(ReadResult.Unreadable.class);
            // the event object is level 1 of the parser's 64
            assertThat(inside).isInstanceOf(depth <= 63 ? ReadResult.Valid.class : ReadResult.Unreadable.class);
            assertSafeToLog(inside);
        });
    }

    /** An event, and nesting of a depth from 1 to 5000 (more often shallow) in objects or in arrays. */
    record Nesting(HostileValues.Event event, int depth, boolean objects) {}

    Gen<Nesting> nestings() {
        Gen<HostileValues.Event> events = events();
        // half the draws at most 100 deep, so that about a third are within the reader's limit of 63
        Gen<Integer> depths = Gen.oneOf(Gen.ints(1, 100), Gen.ints(1, 5000));
        Gen<Boolean> objects = Gen.of(true, false);
        return random -> new Nesting(events.next(random), depths.next(random), objects.next(random));
    }

    /**
     * type, reverses, original, hold_expires_at and final in any combination, hostile text included: an
     * event is valid only in the contract's shapes (an authorization, optionally with hold_expires_at; a
     * reversal naming another event's dedupe_id in reverses, original, or both when equal; a capture
     * naming one in original, with final or without; an increment naming one in original, optionally with
     * hold_expires_at), and otherwise INVALID naming exactly the fields at fault: when the type is not one
     * of the four, the type and, judged as a timestamp after occurred_at, hold_expires_at.
     */
    @Test
    void followUpFieldsAreValidOnlyInTheirShapes() {
        forAll(1500, followUpFields(), sent -> {
            ReadResult result = read(sent.json());

            Set<String> faulty = sent.expectedFaults();
            if (faulty.isEmpty()) {
                assertThat(result).isInstanceOf(ReadResult.Valid.class);
                TransactionEvent event = ((ReadResult.Valid) result).event();
                assertThat(event.type().name()).isEqualTo(sent.type());
                assertThat(event.reverses()).isEqualTo(sent.uuid(sent.reversesText()));
                assertThat(event.original()).isEqualTo(sent.uuid(sent.originalText()));
                assertThat(event.holdExpiresAt()).isEqualTo(sent.holdExpiresAt());
                assertThat(event.isFinal()).isEqualTo(!"false".equals(sent.finalText()));
            } else {
                assertThat(result).isInstanceOf(ReadResult.Invalid.class);
                assertThat(((ReadResult.Invalid) result).errors())
                        .extracting(FieldError::field)
                        .containsExactlyInAnyOrderElementsOf(faulty);
            }
            assertSafeToLog(result);
        });
    }

    /**
     * An authorization without follow-up fields, given type, reverses, original, hold_expires_at and final as
     * raw JSON text (null: left out); the JSON text "null" reads as absent for all of them.
     */
    record FollowUpFields(
            HostileValues.Event event,
            String typeText,
            String reversesText,
            String originalText,
            String holdExpiresAtText,
            String finalText) {

        private static final List<String> TYPES = List.of("AUTHORIZATION", "REVERSAL", "CAPTURE", "INCREMENT");

        String json() {
            String json = event.json();
            StringBuilder extra = new StringBuilder();
            append(extra, "type", typeText);
            append(extra, "reverses", reversesText);
            append(extra, "original", originalText);
            append(extra, "hold_expires_at", holdExpiresAtText);
            append(extra, "final", finalText);
            return json.substring(0, json.length() - 1) + extra + "}";
        }

        private static void append(StringBuilder json, String field, String text) {
            if (text != null) {
                json.append(",\"").append(field).append("\":").append(text);
            }
        }

        private static boolean present(String text) {
            return text != null && !text.equals("null");
        }

        /** The type named, AUTHORIZATION when absent; null when it names none of the four. */
        String type() {
            if (!present(typeText)) {
                return "AUTHORIZATION";
            }
            String type = typeText.startsWith("\"") ? unquoted(typeText) : null;
            return type != null && TYPES.contains(type) ? type : null;
        }

        /** The UUID a text names, when it is a UUID string other than the event's dedupe_id; else null. */
        UUID uuid(String text) {
            if (!present(text) || !text.startsWith("\"")) {
                return null;
            }
            String value = unquoted(text);
            return HostileValues.isUuid(value) && !UUID.fromString(value).equals(event.dedupeId())
                    ? UUID.fromString(value)
                    : null;
        }

        /** The instant of hold_expires_at when it is an RFC 3339 string; else null. */
        Instant holdExpiresAt() {
            if (!present(holdExpiresAtText) || !holdExpiresAtText.startsWith("\"")) {
                return null;
            }
            try {
                return OffsetDateTime.parse(unquoted(holdExpiresAtText), DateTimeFormatter.ISO_OFFSET_DATE_TIME)
                        .toInstant();
            } catch (DateTimeParseException notATimestamp) {
                return null;
            }
        }

        /** The fields the contract finds at fault, read from its rules alone. */
        Set<String> expectedFaults() {
            Set<String> faults = new LinkedHashSet<>();
            String type = type();
            boolean holdAtFault = present(holdExpiresAtText)
                    && (holdExpiresAt() == null
                            || !holdExpiresAt().isAfter(event.occurredAt())
                            || holdExpiresAt().isAfter(event.occurredAt().plus(HostileValues.MAX_HOLD_TTL)));
            if (type == null) {
                faults.add("type");
                if (holdAtFault) {
                    faults.add("hold_expires_at");
                }
                return faults;
            }
            UUID reverses = uuid(reversesText);
            if (present(reversesText) && (!type.equals("REVERSAL") || reverses == null)) {
                faults.add("reverses");
            }
            UUID original = uuid(originalText);
            if (type.equals("AUTHORIZATION")) {
                if (present(originalText)) {
                    faults.add("original");
                }
            } else if (present(originalText)) {
                // a reversal naming both must name one original; reverses is compared only when valid
                boolean another = type.equals("REVERSAL") && reverses != null && !reverses.equals(original);
                if (original == null || another) {
                    faults.add("original");
                }
            } else if (!type.equals("REVERSAL")) {
                faults.add("original");
            } else if (!present(reversesText)) {
                faults.add("reverses");
            }
            if (present(holdExpiresAtText)
                    && (!(type.equals("AUTHORIZATION") || type.equals("INCREMENT")) || holdAtFault)) {
                faults.add("hold_expires_at");
            }
            if (present(finalText)
                    && (!type.equals("CAPTURE") || !List.of("true", "false").contains(finalText))) {
                faults.add("final");
            }
            return faults;
        }
    }

    Gen<FollowUpFields> followUpFields() {
        Gen<String> types = Gen.<String>oneOf(
                Gen.<String>just(null),
                Gen.of("null", "1", "true", "{}", "[]", "\"\"", "\"reversal\"", "\"EXPIRY\"", "\"CAPTURE \""),
                Gen.of("\"AUTHORIZATION\"", "\"REVERSAL\"", "\"CAPTURE\"", "\"INCREMENT\""),
                Gen.strings(HostileValues.textChars(), 0, 20).map(HostileValues::quoted));
        // OWN stands for the event's own dedupe_id; two fixed UUIDs, so that reverses and original are often
        // the same
        Gen<String> originals = Gen.<String>oneOf(
                Gen.<String>just(null),
                Gen.of("null", "7", "{}", "\"\"", OWN),
                Gen.of(
                        HostileValues.quoted("9c2d7e1f-3a4b-4c5d-8e6f-7a8b9c0d1e2f"),
                        HostileValues.quoted("1f0e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b")),
                Gen.strings(HostileValues.textChars(), 0, 40).map(HostileValues::quoted));
        long maxTtlMicros = HostileValues.MAX_HOLD_TTL.toNanos() / 1_000;
        Gen<HoldExpiry> holdExpiries = Gen.<HoldExpiry>oneOf(
                Gen.just(new HoldExpiry(null, null)),
                Gen.of("null", "\"tomorrow\"", "1772366400", "{}").map(text -> new HoldExpiry(text, null)),
                Gen.of(0L, -1_000_000L, maxTtlMicros, maxTtlMicros + 1, 1L, maxTtlMicros - 1)
                        .map(micros -> new HoldExpiry(null, micros)),
                Gen.longs(1, maxTtlMicros).map(micros -> new HoldExpiry(null, micros)));
        Gen<String> finals =
                Gen.<String>oneOf(Gen.<String>just(null), Gen.of("null", "true", "false", "\"true\"", "1", "0", "{}"));
        Gen<HostileValues.Event> authorizations = HostileValues.authorizations();
        return random -> {
            HostileValues.Event event = authorizations.next(random);
            String type = types.next(random);
            String reverses = originals.next(random);
            String original = originals.next(random);
            HoldExpiry holdExpiresAt = holdExpiries.next(random);
            String isFinal = finals.next(random);
            return new FollowUpFields(
                    event,
                    type,
                    own(reverses, event),
                    own(original, event),
                    holdExpiresAt.text(event.occurredAt()),
                    isFinal);
        };
    }

    private static final String OWN = "OWN";

    private static String own(String text, HostileValues.Event event) {
        return OWN.equals(text) ? HostileValues.quoted(event.dedupeId().toString()) : text;
    }

    /** hold_expires_at as raw JSON text, or as microseconds after occurred_at; both null: left out. */
    record HoldExpiry(String text, Long microsAfterOccurredAt) {

        String text(Instant occurredAt) {
            if (microsAfterOccurredAt == null) {
                return text;
            }
            return HostileValues.quoted(
                    occurredAt.plusNanos(microsAfterOccurredAt * 1_000).toString());
        }
    }

    /**
     * account_id, optional, in any form, hostile text included: an event is valid with a UUID string
     * (read as that account) and otherwise INVALID naming account_id alone.
     */
    @Test
    void anAccountIdIsValidOnlyAsAUuidString() {
        forAll(400, accountIds(), sent -> {
            ReadResult result = read(sent.json());

            boolean uuidString = sent.text().startsWith("\"") && HostileValues.isUuid(unquoted(sent.text()));
            if (uuidString) {
                assertThat(result).isInstanceOf(ReadResult.Valid.class);
                assertThat(((ReadResult.Valid) result).event().accountId())
                        .isEqualTo(UUID.fromString(unquoted(sent.text())));
            } else {
                assertThat(result).isInstanceOf(ReadResult.Invalid.class);
                assertThat(((ReadResult.Invalid) result).errors())
                        .extracting(FieldError::field)
                        .containsExactly("account_id");
            }
            assertSafeToLog(result);
        });
    }

    /** An event with account_id given as raw JSON text, never left out nor null. */
    record AccountIdText(HostileValues.Event event, String text) {

        String json() {
            String json = event.json();
            return json.substring(0, json.length() - 1) + ",\"account_id\":" + text + "}";
        }
    }

    Gen<AccountIdText> accountIds() {
        Gen<String> texts = Gen.<String>oneOf(
                HostileValues.breaking("account_id").filter(text -> text != null && !text.equals("null")),
                HostileValues.randomUuids().map(id -> HostileValues.quoted(id.toString())));
        Gen<HostileValues.Event> events = HostileValues.events();
        return random -> new AccountIdText(events.next(random), texts.next(random));
    }

    private static String unquoted(String jsonText) {
        return jsonText.startsWith("\"") ? JsonMapper.builder().build().readValue(jsonText, String.class) : jsonText;
    }

    record Broken(HostileValues.Event event, String field, String text) {

        String json() {
            return event.withField(field, text);
        }

        @Override
        public String toString() {
            String shown = text == null ? "(left out)" : text.length() > 80 ? text.substring(0, 80) + "..." : text;
            return field + " = " + shown;
        }
    }

    Gen<HostileValues.Event> events() {
        return HostileValues.events();
    }

    /** Events of every type with one field broken: one of the seven every event has, or a follow-up field. */
    Gen<Broken> brokenEvents() {
        Gen<HostileValues.Event> events = HostileValues.events();
        Gen<Broken> common = Gen.of(HostileValues.FIELDS).flatMap(field -> {
            Gen<String> texts = HostileValues.breaking(field);
            return random -> new Broken(events.next(random), field, texts.next(random));
        });
        Gen<Broken> followUp = events.flatMap(event -> Gen.of(HostileValues.FOLLOW_UP_FIELDS)
                .flatMap(field ->
                        HostileValues.breakingFollowUp(field, event).map(text -> new Broken(event, field, text))));
        return Gen.oneOf(common, followUp);
    }

    Gen<byte[]> noise() {
        Gen<byte[]> bytes = Gen.bytes(0, 2048);
        Gen<byte[]> jsonish = Gen.strings("{}[]\":,.-+eE0123456789 \t\r\n\\/utrfalsn\u0000\u001bIN_OUTdedupe", 0, 300)
                .map(text -> text.getBytes(StandardCharsets.UTF_8));
        return Gen.oneOf(bytes, jsonish);
    }

    Gen<byte[]> damagedEvents() {
        Gen<HostileValues.Event> events = HostileValues.events();
        Gen<List<Integer>> positionLists = Gen.ints(0, 10_000).list(1, 4);
        Gen<byte[]> replacementBytes = Gen.bytes(4, 4);
        return random -> {
            HostileValues.Event event = events.next(random);
            List<Integer> positions = positionLists.next(random);
            byte[] replacements = replacementBytes.next(random);
            byte[] value = event.json().getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < positions.size(); i++) {
                value[positions.get(i) % value.length] = replacements[i];
            }
            return value;
        };
    }

    private ReadResult read(String json) {
        return reader.read(json.getBytes(StandardCharsets.UTF_8));
    }

    /** What is logged and put in headers: the unreadable problem and the INVALID error messages. */
    private static void assertSafeToLog(ReadResult result) {
        Stream<String> texts = Stream.empty();
        if (result instanceof ReadResult.Unreadable unreadable) {
            texts = Stream.of(unreadable.problem());
        } else if (result instanceof ReadResult.Invalid invalid) {
            texts = invalid.errors().stream().flatMap(error -> Stream.of(error.field(), error.message()));
        }
        texts.forEach(text ->
                assertThat(text).hasSizeLessThanOrEqualTo(600).doesNotContainPattern("[\\p{Cc}\\u2028\\u2029]"));
    }

    /** The contract's rules, checked independently of the reader's code. */
    private static void assertObeysTheContract(TransactionEvent event) {
        assertThat(event.businessKey().channel()).matches(HostileValues.CHANNEL);
        assertThat(event.amount()).isBetween(1L, TransactionEventReader.MAX_AMOUNT);
        assertThat(event.currency()).isEqualTo("USD");
        assertThat(event.occurredAt()).isBeforeOrEqualTo(NOW.plus(MAX_CLOCK_SKEW));
        EventType type = event.type();
        if (event.reverses() != null) {
            assertThat(type).isEqualTo(EventType.REVERSAL);
        }
        if (type == EventType.AUTHORIZATION) {
            assertThat(event.original()).isNull();
        }
        if (type == EventType.CAPTURE || type == EventType.INCREMENT) {
            assertThat(event.original()).isNotNull();
        }
        if (type.isFollowUp()) {
            assertThat(event.originalId()).isNotNull().isNotEqualTo(event.dedupeId());
        }
        if (event.reverses() != null && event.original() != null) {
            assertThat(event.original()).isEqualTo(event.reverses());
        }
        if (event.holdExpiresAt() != null) {
            assertThat(type).isIn(EventType.AUTHORIZATION, EventType.INCREMENT);
            assertThat(event.holdExpiresAt())
                    .isAfter(event.occurredAt())
                    .isBeforeOrEqualTo(event.occurredAt().plus(HostileValues.MAX_HOLD_TTL));
        }
        assertThat(event.isFinal() || type == EventType.CAPTURE).isTrue();
    }
}
