package io.risklimits.decision;

import static io.risklimits.decision.HostileValues.MAX_CLOCK_SKEW;
import static io.risklimits.decision.HostileValues.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import tools.jackson.databind.json.JsonMapper;

/**
 * Properties of the reader over random and hostile input: a valid event is read back
 * field for field; an event with one field broken is INVALID naming that field (or unreadable,
 * a dead letter) and never valid; arbitrary bytes and deep nesting never throw; and no problem or
 * error message carries a control character into a log line or a header. Tries are bounded so the
 * whole class runs in a few seconds.
 */
class TransactionEventReaderPropertiesTest {

    private final TransactionEventReader reader =
            new TransactionEventReader("USD", MAX_CLOCK_SKEW, Clock.fixed(NOW, ZoneOffset.UTC));

    @Property(tries = 300)
    void aValidEventIsReadWithEveryFieldAsSent(@ForAll("events") HostileValues.Event sent) {
        ReadResult result = read(sent.json());

        assertThat(result).isInstanceOf(ReadResult.Valid.class);
        TransactionEvent event = ((ReadResult.Valid) result).event();
        assertThat(event.dedupeId()).isEqualTo(sent.dedupeId());
        assertThat(event.businessKey()).isEqualTo(new BusinessKey(sent.entityId(), sent.channel(), sent.direction()));
        assertThat(event.amount()).isEqualTo(sent.amount());
        assertThat(event.currency()).isEqualTo("USD");
        assertThat(event.occurredAt()).isEqualTo(sent.occurredAt());
    }

    /**
     * The reader takes a timestamp's fields from its pattern's groups; whatever it accepts, and the
     * instant it reads, must be what java.time's ISO parser (strict, as the contract's RFC 3339 subset
     * needs) makes of the same text, out-of-range fields included; an instant before the year 1 is
     * INVALID, as one beyond the clock skew is.
     */
    @Property(tries = 2000)
    void aTimestampIsReadAsJavaTimesStrictIsoParserReadsIt(@ForAll("timestamps") String occurredAt) {
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
    }

    @Provide
    Arbitrary<String> timestamps() {
        Arbitrary<String> twoDigits = Arbitraries.integers().between(0, 99).map(n -> String.format("%02d", n));
        Arbitrary<String> year = Arbitraries.integers().between(0, 9999).map(n -> String.format("%04d", n));
        Arbitrary<String> fraction = Arbitraries.strings()
                .numeric()
                .ofMinLength(0)
                .ofMaxLength(10)
                .map(digits -> digits.isEmpty() ? "" : "." + digits);
        Arbitrary<String> offset = Arbitraries.oneOf(
                Arbitraries.of("Z", "z", "+00:00", "-00:00"),
                Combinators.combine(Arbitraries.of("+", "-"), twoDigits, twoDigits)
                        .as((sign, h, m) -> sign + h + ":" + m));
        Arbitrary<String> separator = Arbitraries.of("T", "t");
        return Combinators.combine(year, twoDigits, twoDigits, separator, twoDigits, twoDigits, twoDigits, fraction)
                .as((y, mo, d, t, h, mi, sec, f) -> y + "-" + mo + "-" + d + t + h + ":" + mi + ":" + sec + f)
                .flatMap(dateTime -> offset.map(zone -> dateTime + zone));
    }

    @Property(tries = 600)
    void anEventWithOneBrokenFieldIsNeverValid(@ForAll("brokenEvents") Broken broken) {
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
    }

    @Property(tries = 500)
    void arbitraryBytesNeverThrowAndAreNeverValid(@ForAll("noise") byte[] value) {
        ReadResult result = reader.read(value);

        assertThat(result).isNotInstanceOf(ReadResult.Valid.class);
        assertSafeToLog(result);
    }

    /** Bytes of a valid event with a few changed: valid only when the result still obeys every rule. */
    @Property(tries = 500)
    void aDamagedEventIsValidOnlyIfItStillObeysEveryRule(@ForAll("damagedEvents") byte[] value) {
        ReadResult result = reader.read(value);

        if (result instanceof ReadResult.Valid valid) {
            assertObeysTheContract(valid.event());
        }
        assertSafeToLog(result);
    }

    @Property(tries = 200)
    void deepNestingNeverThrowsAndBeyondTheLimitIsUnreadable(
            @ForAll("events") HostileValues.Event event,
            @ForAll @IntRange(min = 1, max = 5000) int depth,
            @ForAll boolean objects) {
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
    }

    /**
     * type and reverses in any combination, hostile text included: an event is valid only as an
     * authorization without reverses or as a reversal naming another event's dedupe_id, and otherwise
     * INVALID naming exactly the field at fault (reverses is judged only once the type is known).
     */
    @Property(tries = 600)
    void typeAndReversesAreValidOnlyInTheirTwoShapes(@ForAll("reversalFields") ReversalFields sent) {
        ReadResult result = read(sent.json());

        String type =
                sent.typeText() == null || sent.typeText().equals("null") ? "AUTHORIZATION" : unquoted(sent.typeText());
        boolean absent = sent.reversesText() == null || sent.reversesText().equals("null");
        String reverses = absent ? null : unquoted(sent.reversesText());
        String faulty;
        if (!"AUTHORIZATION".equals(type) && !"REVERSAL".equals(type)) {
            faulty = "type";
        } else if (type.equals("AUTHORIZATION")) {
            faulty = absent ? null : "reverses";
        } else {
            boolean another = reverses != null
                    && HostileValues.isUuid(reverses)
                    && !UUID.fromString(reverses).equals(sent.event().dedupeId());
            faulty = another ? null : "reverses";
        }
        if (faulty == null) {
            assertThat(result).isInstanceOf(ReadResult.Valid.class);
            TransactionEvent event = ((ReadResult.Valid) result).event();
            assertThat(event.type().name()).isEqualTo(type);
            assertThat(event.reverses()).isEqualTo(reverses == null ? null : UUID.fromString(reverses));
        } else {
            assertThat(result).isInstanceOf(ReadResult.Invalid.class);
            assertThat(((ReadResult.Invalid) result).errors())
                    .extracting(FieldError::field)
                    .containsExactly(faulty);
        }
        assertSafeToLog(result);
    }

    /**
     * account_id, optional, in any form, hostile text included: an event is valid with a UUID string
     * (read as that account) and otherwise INVALID naming account_id alone.
     */
    @Property(tries = 400)
    void anAccountIdIsValidOnlyAsAUuidString(@ForAll("accountIds") AccountIdText sent) {
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
    }

    /** An event with account_id given as raw JSON text, never left out nor null. */
    record AccountIdText(HostileValues.Event event, String text) {

        String json() {
            String json = event.json();
            return json.substring(0, json.length() - 1) + ",\"account_id\":" + text + "}";
        }
    }

    @Provide
    Arbitrary<AccountIdText> accountIds() {
        Arbitrary<String> texts = Arbitraries.oneOf(
                HostileValues.breaking("account_id").filter(text -> text != null && !text.equals("null")),
                Arbitraries.create(UUID::randomUUID).map(id -> HostileValues.quoted(id.toString())));
        return Combinators.combine(HostileValues.events(), texts).as(AccountIdText::new);
    }

    /** An event with type and reverses given as raw JSON text (null: left out). */
    record ReversalFields(HostileValues.Event event, String typeText, String reversesText) {

        String json() {
            String json = event.json();
            StringBuilder extra = new StringBuilder();
            if (typeText != null) {
                extra.append(",\"type\":").append(typeText);
            }
            if (reversesText != null) {
                extra.append(",\"reverses\":").append(reversesText);
            }
            return json.substring(0, json.length() - 1) + extra + "}";
        }
    }

    @Provide
    Arbitrary<ReversalFields> reversalFields() {
        Arbitrary<String> types = Arbitraries.oneOf(
                Arbitraries.just(null),
                Arbitraries.of("null", "1", "true", "{}", "[]", "\"\"", "\"reversal\"", "\"REVERSAL \""),
                Arbitraries.of("\"AUTHORIZATION\"", "\"REVERSAL\""),
                Arbitraries.strings().ofMaxLength(20).map(HostileValues::quoted));
        return HostileValues.events()
                .flatMap(event -> Combinators.combine(
                                types,
                                Arbitraries.oneOf(
                                        Arbitraries.just(null),
                                        Arbitraries.of("null", "7", "{}", "\"\""),
                                        Arbitraries.just(HostileValues.quoted(
                                                event.dedupeId().toString())),
                                        Arbitraries.create(UUID::randomUUID)
                                                .map(id -> HostileValues.quoted(id.toString())),
                                        Arbitraries.strings().ofMaxLength(40).map(HostileValues::quoted)))
                        .as((type, reverses) -> new ReversalFields(event, type, reverses)));
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

    @Provide
    Arbitrary<HostileValues.Event> events() {
        return HostileValues.events();
    }

    @Provide
    Arbitrary<Broken> brokenEvents() {
        return Arbitraries.of(HostileValues.FIELDS)
                .flatMap(field -> Combinators.combine(HostileValues.events(), HostileValues.breaking(field))
                        .as((event, text) -> new Broken(event, field, text)));
    }

    @Provide
    Arbitrary<byte[]> noise() {
        Arbitrary<byte[]> bytes = Arbitraries.bytes().array(byte[].class).ofMaxSize(2048);
        Arbitrary<byte[]> jsonish = Arbitraries.strings()
                .withChars("{}[]\":,.-+eE0123456789 \t\r\n\\/utrfalsn\u0000\u001bIN_OUTdedupe")
                .ofMaxLength(300)
                .map(text -> text.getBytes(StandardCharsets.UTF_8));
        return Arbitraries.oneOf(bytes, jsonish);
    }

    @Provide
    Arbitrary<byte[]> damagedEvents() {
        return Combinators.combine(
                        HostileValues.events(),
                        Arbitraries.integers()
                                .between(0, 10_000)
                                .list()
                                .ofMinSize(1)
                                .ofMaxSize(4),
                        Arbitraries.bytes().list().ofMinSize(4).ofMaxSize(4))
                .as((event, positions, replacements) -> {
                    byte[] value = event.json().getBytes(StandardCharsets.UTF_8);
                    for (int i = 0; i < positions.size(); i++) {
                        value[positions.get(i) % value.length] = replacements.get(i);
                    }
                    return value;
                });
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
    }
}
