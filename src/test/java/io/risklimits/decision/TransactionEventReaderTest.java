package io.risklimits.decision;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.DecisionSchema;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every rule of the transaction event (docs/contract.md, schemas/transaction-event.schema.json), one
 * by one: what is Valid, what is Invalid (readable dedupe_id, and which field is named), and what
 * is Unreadable (a dead letter without a decision).
 */
class TransactionEventReaderTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    private static final Duration MAX_CLOCK_SKEW = Duration.ofMinutes(5);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ONE_MEBIBYTE = "x".repeat(1024 * 1024);

    private static final UUID DEDUPE_ID = UUID.fromString("5a1c33e4-0d7b-4f4e-9c1e-1f2a3b4c5d6e");
    private static final UUID ENTITY_ID = UUID.fromString("0b7e1a52-94a5-4e3c-8c9f-6d0e2f3a4b5c");

    private final TransactionEventReader reader =
            new TransactionEventReader("USD", MAX_CLOCK_SKEW, Clock.fixed(NOW, ZoneOffset.UTC));

    // ---------------------------------------------------------------- valid events

    @Test
    void aWellFormedEventIsValidAndEchoesEveryField() {
        ReadResult result = read(event());

        assertThat(result).isInstanceOf(ReadResult.Valid.class);
        TransactionEvent event = ((ReadResult.Valid) result).event();
        assertThat(event.dedupeId()).isEqualTo(DEDUPE_ID);
        assertThat(event.businessKey()).isEqualTo(new BusinessKey(ENTITY_ID, "CARD", Direction.OUT));
        assertThat(event.amount()).isEqualTo(12_345L);
        assertThat(event.currency()).isEqualTo("USD");
        assertThat(event.occurredAt()).isEqualTo(NOW.minusSeconds(60));
    }

    // ---------------------------------------------------------------- type and reverses

    private static final UUID ORIGINAL = UUID.fromString("9c2d7e1f-3a4b-4c5d-8e6f-7a8b9c0d1e2f");

    @Test
    void anEventWithoutTypeIsAnAuthorization() {
        TransactionEvent event = ((ReadResult.Valid) read(event())).event();

        assertThat(event.type()).isEqualTo(EventType.AUTHORIZATION);
        assertThat(event.reverses()).isNull();
        assertThat(((ReadResult.Valid) read(with(e -> e.put("type", null))))
                        .event()
                        .type())
                .isEqualTo(EventType.AUTHORIZATION);
    }

    @Test
    void aReversalNamesTheAuthorizationItReleases() {
        ReadResult result = read(with(e -> {
            e.put("type", "REVERSAL");
            e.put("reverses", ORIGINAL.toString());
        }));

        TransactionEvent event = ((ReadResult.Valid) result).event();
        assertThat(event.type()).isEqualTo(EventType.REVERSAL);
        assertThat(event.reverses()).isEqualTo(ORIGINAL);
        assertThat(event.fields().reverses()).isEqualTo(ORIGINAL);
    }

    static Stream<Arguments> brokenReversalFields() {
        return Stream.of(
                invalid("type", "must be AUTHORIZATION, REVERSAL, CAPTURE or INCREMENT", e -> e.put("type", "REFUND")),
                invalid(
                        "type",
                        "must be AUTHORIZATION, REVERSAL, CAPTURE or INCREMENT",
                        e -> e.put("type", "reversal")),
                invalid("type", "must be AUTHORIZATION, REVERSAL, CAPTURE or INCREMENT", e -> e.put("type", 1)),
                invalid("reverses", "is required for a REVERSAL (or original)", e -> e.put("type", "REVERSAL")),
                invalid("reverses", "must be a UUID string", e -> {
                    e.put("type", "REVERSAL");
                    e.put("reverses", "not-a-uuid");
                }),
                invalid("reverses", "must be another event's dedupe_id, not the reversal's own", e -> {
                    e.put("type", "REVERSAL");
                    e.put("reverses", DEDUPE_ID.toString());
                }),
                invalid(
                        "reverses",
                        "must be absent unless type is REVERSAL",
                        e -> e.put("reverses", ORIGINAL.toString())),
                invalid("reverses", "must be absent unless type is REVERSAL", e -> {
                    e.put("type", "AUTHORIZATION");
                    e.put("reverses", ORIGINAL.toString());
                }));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("brokenReversalFields")
    void aBrokenTypeOrReversesMakesTheEventInvalidNamingThatField(
            String field, String message, Map<String, Object> event) {
        ReadResult.Invalid invalid = assertInvalid(read(event));

        assertThat(invalid.errors()).containsExactly(new FieldError(field, message));
    }

    @Test
    void anInvalidReversalEchoesItsTypeAndTheOriginalItNamed() {
        ReadResult.Invalid invalid = assertInvalid(read(with(e -> {
            e.put("type", "REVERSAL");
            e.put("reverses", ORIGINAL.toString());
            e.put("amount", 0);
        })));

        assertThat(invalid.fields().type()).isEqualTo(EventType.REVERSAL);
        assertThat(invalid.fields().reverses()).isEqualTo(ORIGINAL);
    }

    // ---------------------------------------------------------------- account_id

    private static final UUID ACCOUNT_ID = UUID.fromString("3e8b1c2d-7f4a-4b6e-9d0c-5a1f2e3d4c6b");

    @Test
    void anAccountIdNamesTheAccountTheEventAlsoCountsUnder() {
        TransactionEvent event =
                ((ReadResult.Valid) read(with(e -> e.put("account_id", ACCOUNT_ID.toString())))).event();

        assertThat(event.accountId()).isEqualTo(ACCOUNT_ID);
        assertThat(event.fields().accountId()).isEqualTo(ACCOUNT_ID);
        assertThat(event.scopeKeys()).extracting(ScopeKey::scope).contains(Scope.ACCOUNT);
    }

    @Test
    void anEventWithoutAccountIdOrWithANullOneNamesNoAccount() {
        assertThat(((ReadResult.Valid) read(event())).event().accountId()).isNull();
        assertThat(((ReadResult.Valid) read(with(e -> e.put("account_id", null))))
                        .event()
                        .accountId())
                .isNull();
    }

    @Test
    void anInvalidEventEchoesTheAccountIdItCouldRead() {
        ReadResult.Invalid invalid = assertInvalid(read(with(e -> {
            e.put("account_id", ACCOUNT_ID.toString());
            e.put("amount", 0);
        })));

        assertThat(invalid.errors()).extracting(FieldError::field).containsExactly("amount");
        assertThat(invalid.fields().accountId()).isEqualTo(ACCOUNT_ID);
    }

    /** The event schema says of account_id what the reader does: a UUID string, or absent, or null. */
    @ParameterizedTest(name = "account_id {0}")
    @MethodSource("accountIds")
    void theEventSchemaAcceptsExactlyTheAccountIdsTheReaderAccepts(String description, Object accountId) {
        byte[] event = bytes(with(e -> e.put("account_id", accountId)));

        boolean valid = read(event) instanceof ReadResult.Valid;

        assertThat(DecisionSchema.isValidEvent(event)).as(description).isEqualTo(valid);
    }

    static Stream<Arguments> accountIds() {
        return Stream.of(
                Arguments.of("a UUID", ACCOUNT_ID.toString()),
                Arguments.of("null", null),
                Arguments.of("a number", 42),
                Arguments.of("an empty string", ""),
                Arguments.of("not a UUID", "not-a-uuid"),
                Arguments.of("an object", Map.of("id", ACCOUNT_ID.toString())));
    }

    static Stream<Arguments> validVariants() {
        return Stream.of(
                variant("amount at the lower bound 1", e -> e.put("amount", 1)),
                variant("amount at the upper bound 1e15", e -> e.put("amount", 1_000_000_000_000_000L)),
                variant("channel of 32 characters", e -> e.put("channel", "A".repeat(32))),
                variant("channel of one character", e -> e.put("channel", "X")),
                variant("channel with digits and underscore", e -> e.put("channel", "P2P_2026")),
                variant("direction IN", e -> e.put("direction", "IN")),
                variant(
                        "dedupe_id in upper case",
                        e -> e.put("dedupe_id", DEDUPE_ID.toString().toUpperCase())),
                variant(
                        "entity_id in upper case",
                        e -> e.put("entity_id", ENTITY_ID.toString().toUpperCase())),
                variant(
                        "occurred_at exactly at the allowed skew",
                        e -> e.put("occurred_at", NOW.plus(MAX_CLOCK_SKEW).toString())),
                variant("occurred_at with a positive offset", e -> e.put("occurred_at", "2026-03-01T17:30:00+05:30")),
                variant(
                        "occurred_at with fractional seconds",
                        e -> e.put("occurred_at", "2026-03-01T11:59:59.123456789Z")),
                variant(
                        "occurred_at far in the past (the contract bounds only the future)",
                        e -> e.put("occurred_at", "1970-01-01T00:00:00Z")),
                variant(
                        "occurred_at in lower case t and z (RFC 3339 section 5.6)",
                        e -> e.put("occurred_at", "2026-03-01t11:00:00z")),
                variant(
                        "account_id in upper case",
                        e -> e.put("account_id", ACCOUNT_ID.toString().toUpperCase())),
                variant("an unknown extra field", e -> e.put("merchant", "ACME")),
                variant("an unknown extra object", e -> e.put("meta", Map.of("a", List.of(1, 2, 3)))),
                variant("an unknown extra null", e -> e.put("note", null)),
                variant("an unknown 1 MiB string", e -> e.put("note", ONE_MEBIBYTE)),
                variant("an unknown string with CR, LF, NUL and ESC", e -> e.put("note", "a\r\nb\u0000c\u001b[31m")),
                variant("an unknown string with a lone surrogate", e -> e.put("note", "\ud800")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validVariants")
    void variantsWithinTheRulesAreValid(String description, Map<String, Object> event) {
        assertThat(read(event)).as(description).isInstanceOf(ReadResult.Valid.class);
    }

    @Test
    void anOffsetIsConvertedToTheInstantItNames() {
        ReadResult result = read(with(e -> e.put("occurred_at", "2026-03-01T17:30:00+05:30")));

        assertThat(((ReadResult.Valid) result).event().occurredAt()).isEqualTo(Instant.parse("2026-03-01T12:00:00Z"));
    }

    // ---------------------------------------------------------------- invalid: one field breaks a rule

    static Stream<Arguments> invalidFields() {
        return Stream.of(
                // entity_id
                invalid("entity_id", "is required", e -> e.remove("entity_id")),
                invalid("entity_id", "is required", e -> e.put("entity_id", null)),
                invalid("entity_id", "must be a UUID string", e -> e.put("entity_id", 42)),
                invalid("entity_id", "must be a UUID string", e -> e.put("entity_id", "")),
                invalid("entity_id", "must be a UUID string", e -> e.put("entity_id", "not-a-uuid")),
                invalid(
                        "entity_id",
                        "must be a UUID string",
                        e -> e.put("entity_id", ENTITY_ID.toString().replace("-", ""))),
                invalid("entity_id", "must be a UUID string", e -> e.put("entity_id", "{" + ENTITY_ID + "}")),
                invalid("entity_id", "must be a UUID string", e -> e.put("entity_id", ENTITY_ID + "\n")),
                invalid("entity_id", "must be a UUID string", e -> e.put("entity_id", List.of(ENTITY_ID.toString()))),
                // account_id (optional: absent or null names no account)
                invalid("account_id", "must be a UUID string", e -> e.put("account_id", 42)),
                invalid("account_id", "must be a UUID string", e -> e.put("account_id", true)),
                invalid("account_id", "must be a UUID string", e -> e.put("account_id", "")),
                invalid("account_id", "must be a UUID string", e -> e.put("account_id", "not-a-uuid")),
                invalid(
                        "account_id",
                        "must be a UUID string",
                        e -> e.put("account_id", ACCOUNT_ID.toString().replace("-", ""))),
                invalid("account_id", "must be a UUID string", e -> e.put("account_id", ACCOUNT_ID + "\n")),
                invalid("account_id", "must be a UUID string", e -> e.put("account_id", Map.of("id", ACCOUNT_ID))),
                // channel
                invalid("channel", "is required", e -> e.remove("channel")),
                invalid("channel", "is required", e -> e.put("channel", null)),
                invalid("channel", "must be a string", e -> e.put("channel", 7)),
                invalid("channel", "must be a string", e -> e.put("channel", Map.of("name", "CARD"))),
                invalid("channel", "must be 1 to 32", e -> e.put("channel", "")),
                invalid("channel", "must be 1 to 32", e -> e.put("channel", "card")),
                invalid("channel", "must be 1 to 32", e -> e.put("channel", "A".repeat(33))),
                invalid("channel", "must be 1 to 32", e -> e.put("channel", "CA RD")),
                invalid("channel", "must be 1 to 32", e -> e.put("channel", "CARD-1")),
                invalid("channel", "must be 1 to 32", e -> e.put("channel", "CARD\n")),
                invalid("channel", "must be 1 to 32", e -> e.put("channel", "CARD\r\nX-Injected: 1")),
                invalid("channel", "must be 1 to 32", e -> e.put("channel", "CARD\u0000")),
                invalid("channel", "must be 1 to 32", e -> e.put("channel", "CARÐ")),
                invalid("channel", "must be 1 to 32", e -> e.put("channel", "ＣＡＲＤ")),
                invalid("channel", "must be 1 to 32", e -> e.put("channel", ONE_MEBIBYTE)),
                // direction
                invalid("direction", "is required", e -> e.remove("direction")),
                invalid("direction", "is required", e -> e.put("direction", null)),
                invalid("direction", "must be a string", e -> e.put("direction", true)),
                invalid("direction", "must be IN or OUT", e -> e.put("direction", "")),
                invalid("direction", "must be IN or OUT", e -> e.put("direction", "in")),
                invalid("direction", "must be IN or OUT", e -> e.put("direction", "Out")),
                invalid("direction", "must be IN or OUT", e -> e.put("direction", "SIDEWAYS")),
                invalid("direction", "must be IN or OUT", e -> e.put("direction", "OUT ")),
                invalid("direction", "must be IN or OUT", e -> e.put("direction", ONE_MEBIBYTE)),
                // currency
                invalid("currency", "is required", e -> e.remove("currency")),
                invalid("currency", "is required", e -> e.put("currency", null)),
                invalid("currency", "must be a string", e -> e.put("currency", 840)),
                invalid("currency", "must be an ISO 4217 currency with a minor unit", e -> e.put("currency", "XXX")),
                invalid("currency", "must be an ISO 4217 currency with a minor unit", e -> e.put("currency", "XAU")),
                invalid("currency", "must be an ISO 4217 currency with a minor unit", e -> e.put("currency", "ABC")),
                invalid("currency", "must be an ISO 4217 code", e -> e.put("currency", "usd")),
                invalid("currency", "must be an ISO 4217 code", e -> e.put("currency", "US")),
                invalid("currency", "must be an ISO 4217 code", e -> e.put("currency", "USDX")),
                invalid("currency", "must be an ISO 4217 code", e -> e.put("currency", "US$")),
                invalid("currency", "must be an ISO 4217 code", e -> e.put("currency", "")),
                // occurred_at
                invalid("occurred_at", "is required", e -> e.remove("occurred_at")),
                invalid("occurred_at", "is required", e -> e.put("occurred_at", null)),
                invalid("occurred_at", "must be a string", e -> e.put("occurred_at", NOW.toEpochMilli())),
                invalid("occurred_at", "must be an RFC 3339", e -> e.put("occurred_at", "")),
                invalid("occurred_at", "must be an RFC 3339", e -> e.put("occurred_at", "yesterday")),
                invalid("occurred_at", "must be an RFC 3339", e -> e.put("occurred_at", "2026-03-01")),
                invalid("occurred_at", "must be an RFC 3339", e -> e.put("occurred_at", "2026-03-01T11:00:00")),
                invalid("occurred_at", "must be an RFC 3339", e -> e.put("occurred_at", "2026-02-30T11:00:00Z")),
                invalid("occurred_at", "must be an RFC 3339", e -> e.put("occurred_at", "2026-03-01T25:00:00Z")),
                invalid("occurred_at", "must be an RFC 3339", e -> e.put("occurred_at", "2026-03-01 11:00:00Z")),
                invalid("occurred_at", "must be an RFC 3339", e -> e.put("occurred_at", "1772362800")),
                invalid("occurred_at", "must be an RFC 3339", e -> e.put("occurred_at", "+2026-03-01T11:00:00Z")),
                invalid("occurred_at", "must be an RFC 3339", e -> e.put("occurred_at", "2026-03-01T11:00:00Z\n")),
                invalid(
                        "occurred_at",
                        "must be an RFC 3339",
                        e -> e.put("occurred_at", "2026-03-01T11:00:00." + "1".repeat(80) + "Z")),
                invalid("occurred_at", "must be an RFC 3339", e -> e.put("occurred_at", ONE_MEBIBYTE)),
                invalid(
                        "occurred_at",
                        "in the future",
                        e -> e.put(
                                "occurred_at",
                                NOW.plus(MAX_CLOCK_SKEW).plusMillis(1).toString())),
                invalid(
                        "occurred_at",
                        "in the future",
                        e -> e.put("occurred_at", NOW.plus(Duration.ofDays(1)).toString())),
                invalid("occurred_at", "in the future", e -> e.put("occurred_at", "9999-12-31T23:59:59Z")),
                invalid("occurred_at", "in the future", e -> e.put("occurred_at", "2026-03-01T12:06:00+00:00")),
                invalid("occurred_at", "in the future", e -> e.put("occurred_at", "2026-03-01T11:06:00-01:00")));
    }

    @ParameterizedTest(name = "{0}: {1} ({index})")
    @MethodSource("invalidFields")
    void aFieldThatBreaksItsRuleMakesTheEventInvalidNamingThatField(
            String field, String message, Map<String, Object> event) {
        ReadResult.Invalid invalid = assertInvalid(read(event));

        assertThat(invalid.errors()).singleElement().satisfies(error -> {
            assertThat(error.field()).isEqualTo(field);
            assertThat(error.message()).contains(message);
        });
        assertThat(fieldValue(invalid.fields(), field))
                .as("echo of the invalid field")
                .isNull();
    }

    // ---------------------------------------------------------------- amount, written as raw JSON

    static Stream<Arguments> invalidAmounts() {
        String range = "must be between 1 and 1000000000000000";
        String fraction = "must be an integer in minor units, without fraction or exponent";
        return Stream.of(
                Arguments.of("0", range),
                Arguments.of("-0", range),
                Arguments.of("-1", range),
                Arguments.of("1000000000000001", range),
                Arguments.of("9223372036854775807", range), // Long.MAX_VALUE
                Arguments.of("9223372036854775808", range), // 2^63
                Arguments.of("-9223372036854775809", range),
                Arguments.of("18446744073709551616", range), // 2^64: would wrap to 0 as a long
                Arguments.of("18446744073709551617", range), // 2^64 + 1: would wrap to 1 as a long
                Arguments.of("1" + "0".repeat(99), range), // 100 digits
                Arguments.of("1.0", fraction),
                Arguments.of("1.5", fraction),
                Arguments.of("100.00", fraction),
                Arguments.of("1e3", fraction),
                Arguments.of("1E3", fraction),
                Arguments.of("1e+3", fraction),
                Arguments.of("1e400", fraction),
                Arguments.of("-1e400", fraction),
                Arguments.of("1e-400", fraction),
                Arguments.of("\"100\"", "must be a JSON integer, not string"),
                Arguments.of("\"\"", "must be a JSON integer, not string"),
                Arguments.of("true", "must be a JSON integer, not boolean"),
                Arguments.of("[100]", "must be a JSON integer, not array"),
                Arguments.of("{\"value\": 100}", "must be a JSON integer, not object"),
                Arguments.of("null", "is required"));
    }

    @ParameterizedTest(name = "amount {0}")
    @MethodSource("invalidAmounts")
    void anAmountOutsideTheRulesIsInvalidNotCoerced(String amount, String message) {
        ReadResult.Invalid invalid = assertInvalid(read(eventWithRawAmount(amount)));

        assertThat(invalid.errors()).containsExactly(new FieldError("amount", message));
        assertThat(invalid.fields().amount()).isNull();
    }

    @Test
    void aMissingAmountIsRequired() {
        ReadResult.Invalid invalid = assertInvalid(read(with(e -> e.remove("amount"))));

        assertThat(invalid.errors()).containsExactly(new FieldError("amount", "is required"));
    }

    // ---------------------------------------------------------------- what an INVALID result carries

    @Test
    void everyBrokenFieldIsReportedAtOnceInContractOrder() {
        ReadResult.Invalid invalid = assertInvalid(read(Map.of(
                "dedupe_id", DEDUPE_ID.toString(),
                "entity_id", "nope",
                "channel", "bad channel",
                "direction", "UP",
                "amount", 0,
                "currency", "ABC",
                "occurred_at", "soon")));

        assertThat(invalid.dedupeId()).isEqualTo(DEDUPE_ID);
        assertThat(invalid.errors())
                .extracting(FieldError::field)
                .containsExactly("entity_id", "channel", "direction", "amount", "currency", "occurred_at");
        assertThat(invalid.fields()).isEqualTo(new EventFields(null, null, null, null, null, null));
        assertThat(invalid.fields().businessKey()).isEmpty();
    }

    @Test
    void anInvalidEventKeepsTheFieldsThatPassed() {
        ReadResult.Invalid invalid = assertInvalid(read(with(e -> e.put("currency", "XXX"))));

        assertThat(invalid.dedupeId()).isEqualTo(DEDUPE_ID);
        assertThat(invalid.fields())
                .isEqualTo(new EventFields(ENTITY_ID, "CARD", Direction.OUT, 12_345L, null, NOW.minusSeconds(60)));
        assertThat(invalid.fields().businessKey()).contains(new BusinessKey(ENTITY_ID, "CARD", Direction.OUT));
    }

    @ParameterizedTest(name = "channel {0}")
    @ValueSource(strings = {"CARD\r\nX-Injected: yes", "<script>alert(1)</script>", "CARD\u001b[2J"})
    void errorMessagesNeverQuoteTheInput(String hostileChannel) {
        ReadResult.Invalid invalid = assertInvalid(read(with(e -> e.put("channel", hostileChannel))));

        assertThat(invalid.errors()).singleElement().satisfies(error -> {
            assertThat(error.message()).doesNotContain("Injected", "script", "\u001b", "\r", "\n");
        });
    }

    // ---------------------------------------------------------------- unreadable: no dedupe_id to decide

    static Stream<Arguments> unreadableDedupeIds() {
        return Stream.of(
                variant("dedupe_id missing", e -> e.remove("dedupe_id")),
                variant("dedupe_id null", e -> e.put("dedupe_id", null)),
                variant("dedupe_id a number", e -> e.put("dedupe_id", 12345)),
                variant("dedupe_id an object", e -> e.put("dedupe_id", Map.of("id", DEDUPE_ID.toString()))),
                variant("dedupe_id an array", e -> e.put("dedupe_id", List.of(DEDUPE_ID.toString()))),
                variant("dedupe_id empty", e -> e.put("dedupe_id", "")),
                variant("dedupe_id not a UUID", e -> e.put("dedupe_id", "order-42")),
                variant(
                        "dedupe_id without dashes",
                        e -> e.put("dedupe_id", DEDUPE_ID.toString().replace("-", ""))),
                variant("dedupe_id with braces", e -> e.put("dedupe_id", "{" + DEDUPE_ID + "}")),
                variant("dedupe_id with a trailing LF", e -> e.put("dedupe_id", DEDUPE_ID + "\n")),
                variant("dedupe_id with a leading space", e -> e.put("dedupe_id", " " + DEDUPE_ID)),
                variant(
                        "dedupe_id with a non-hex digit",
                        e -> e.put("dedupe_id", "g" + DEDUPE_ID.toString().substring(1))),
                variant("dedupe_id of 1 MiB", e -> e.put("dedupe_id", ONE_MEBIBYTE)),
                variant("dedupe_id missing and every other field broken too", e -> {
                    e.remove("dedupe_id");
                    e.put("amount", -1);
                    e.put("currency", "EUR");
                }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unreadableDedupeIds")
    void withoutAParseableDedupeIdTheRecordIsUnreadable(String description, Map<String, Object> event) {
        assertThat(read(event))
                .as(description)
                .isEqualTo(new ReadResult.Unreadable("dedupe_id is missing or not a UUID string"));
    }

    static Stream<Arguments> notJson() {
        String event = new String(bytes(event()), StandardCharsets.UTF_8);
        String body = event.substring(1, event.length() - 1);
        return Stream.of(
                Arguments.of("empty value", "", "not a JSON object"),
                Arguments.of("only whitespace", " \r\n\t ", "not a JSON object"),
                Arguments.of("JSON null", "null", "not a JSON object"),
                Arguments.of("a JSON array of the event", "[" + event + "]", "not a JSON object"),
                Arguments.of("a JSON string", "\"" + DEDUPE_ID + "\"", "not a JSON object"),
                Arguments.of("a JSON number", "42", "not a JSON object"),
                Arguments.of("plain text", "hello, world", "not JSON"),
                Arguments.of("CSV", DEDUPE_ID + "," + ENTITY_ID + ",CARD,OUT,100,USD", "not JSON"),
                Arguments.of("the event cut short", event.substring(0, event.length() - 5), "not JSON"),
                Arguments.of("the event and trailing garbage", event + "x", "not JSON"),
                Arguments.of("two events back to back", event + event, "not JSON"),
                Arguments.of("single quotes", event.replace('"', '\''), "not JSON"),
                Arguments.of("a comment", "/* hi */" + event, "not JSON"),
                Arguments.of("a trailing comma", "{" + body + ",}", "not JSON"),
                Arguments.of("unquoted NaN", "{" + body + ",\"x\":NaN}", "not JSON"),
                Arguments.of(
                        "a leading zero",
                        "{" + body.replace("\"amount\":12345", "\"amount\":012345") + "}",
                        "not JSON"),
                Arguments.of("a raw LF inside a string", "{" + body + ",\"note\":\"a\nb\"}", "not JSON"),
                Arguments.of("a raw CR inside a string", "{" + body + ",\"note\":\"a\rb\"}", "not JSON"),
                Arguments.of("a raw NUL inside a string", "{" + body + ",\"note\":\"a\u0000b\"}", "not JSON"),
                Arguments.of(
                        "a raw CR LF in the channel", "{" + body.replace("\"CARD\"", "\"CA\r\nRD\"") + "}", "not JSON"),
                Arguments.of("a bad escape", "{" + body + ",\"note\":\"\\q\"}", "not JSON"),
                Arguments.of(
                        "a duplicate dedupe_id",
                        "{" + body + ",\"dedupe_id\":\"" + UUID.randomUUID() + "\"}",
                        "not JSON"),
                Arguments.of("a duplicate amount", "{" + body + ",\"amount\":1}", "not JSON"),
                Arguments.of("a duplicate unknown field", "{" + body + ",\"x\":1,\"x\":2}", "not JSON"),
                Arguments.of("a UTF-8 byte order mark", "\ufeff" + event, "not JSON"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("notJson")
    void aValueThatIsNotOneJsonObjectIsUnreadable(String description, String value, String problem) {
        assertUnreadable(read(value.getBytes(StandardCharsets.UTF_8)), problem);
    }

    static Stream<Arguments> notUtf8() {
        byte[] event = bytes(event());
        return Stream.of(
                Arguments.of(
                        "a lone continuation byte", new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0x80, '"', '}'}),
                Arguments.of(
                        "a truncated two-byte sequence",
                        new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, '"', '}'}),
                Arguments.of(
                        "an overlong slash",
                        new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xC0, (byte) 0xAF, '"', '}'}),
                Arguments.of(
                        "a surrogate encoded as in CESU-8",
                        new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', '}'}),
                Arguments.of("0xFF", new byte[] {(byte) 0xFF}),
                Arguments.of("Latin-1 in an otherwise valid event", latin1Inside(event)),
                Arguments.of("UTF-16", new String(event, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_16)),
                Arguments.of("binary garbage", garbage()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("notUtf8")
    void bytesThatAreNotUtf8AreUnreadable(String description, byte[] value) {
        assertThat(read(value)).isEqualTo(new ReadResult.Unreadable("value is not UTF-8"));
    }

    /** NUL bytes are UTF-8 and never JSON: the event is not read in the encoding they suggest. */
    @ParameterizedTest
    @ValueSource(strings = {"UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE"})
    void anEventInAnotherEncodingWithoutAByteOrderMarkIsNotJson(String encoding) {
        byte[] value = new String(bytes(event()), StandardCharsets.UTF_8).getBytes(Charset.forName(encoding));

        assertUnreadable(read(value), "not JSON");
    }

    @Test
    void aRecordWithoutValueIsUnreadable() {
        assertThat(reader.read(null)).isEqualTo(new ReadResult.Unreadable("record has no value"));
    }

    /**
     * The reader's parser limits (nesting 64, numbers of 1000 characters, strings of 2 MiB) are not
     * in the contract; beyond them a record is dead-lettered even when its dedupe_id is readable.
     */
    static Stream<Arguments> beyondTheParserLimits() {
        return Stream.of(
                Arguments.of(
                        "nesting 1000 deep in an unknown field",
                        rawEvent("\"deep\":" + "[".repeat(1000) + "]".repeat(1000))),
                Arguments.of(
                        "nesting 65 deep in an unknown field", rawEvent("\"deep\":" + "[".repeat(64) + "]".repeat(64))),
                Arguments.of(
                        "an unknown string of 3 MiB", rawEvent("\"note\":\"" + "x".repeat(3 * 1024 * 1024) + "\"")),
                Arguments.of("an unknown number of 1001 digits", rawEvent("\"n\":" + "1".repeat(1001))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("beyondTheParserLimits")
    void beyondTheParserLimitsARecordIsUnreadable(String description, String value) {
        assertUnreadable(read(value.getBytes(StandardCharsets.UTF_8)), "not JSON");
    }

    @Test
    void nestingJustWithinTheParserLimitIsIgnoredAsAnUnknownField() {
        // the event object is level 1, so 63 arrays inside it are the deepest allowed
        String value = rawEvent("\"deep\":" + "[".repeat(63) + "]".repeat(63));

        assertThat(read(value.getBytes(StandardCharsets.UTF_8))).isInstanceOf(ReadResult.Valid.class);
    }

    // ---------------------------------------------------------------- found by these tests, now fixed

    /**
     * docs/contract.md: a value out of range is INVALID (a decision), and only a record that is not JSON
     * or has no parseable dedupe_id is a dead letter. A many-digit amount is JSON with a readable
     * dedupe_id, so it must be answered INVALID (it was dead-lettered when numbers were capped at 100).
     */
    @Test
    void anAmountOfManyDigitsIsInvalidNotUnreadable() {
        ReadResult result = read(eventWithRawAmount("9".repeat(400)));

        assertThat(assertInvalid(result).errors())
                .containsExactly(new FieldError("amount", "must be between 1 and 1000000000000000"));
    }

    /** RFC 3339 (section 5.6) has four-digit years without a sign, and seconds are required. */
    static Stream<Arguments> notRfc3339() {
        return Stream.of(
                Arguments.of("-200000-01-01T00:00:00Z"), // also outside PostgreSQL's timestamptz range
                Arguments.of("-0001-01-01T00:00:00Z"),
                Arguments.of("2026-03-01T11:00Z"),
                Arguments.of("2026-03-01T11:00:00+01:00:30"));
    }

    @ParameterizedTest(name = "occurred_at {0}")
    @MethodSource("notRfc3339")
    void aTimestampThatIsNotRfc3339IsInvalid(String occurredAt) {
        ReadResult.Invalid invalid = assertInvalid(read(with(e -> e.put("occurred_at", occurredAt))));

        assertThat(invalid.errors())
                .singleElement()
                .extracting(FieldError::field)
                .isEqualTo("occurred_at");
    }

    /**
     * PostgreSQL has no year 0 (the year before 1 AD is 1 BC): the earliest occurred_at is
     * 0001-01-01T00:00:00Z, the offset applied, and one before it is INVALID rather than refused by the
     * database.
     */
    @ParameterizedTest(name = "occurred_at {0}")
    @ValueSource(strings = {"0000-06-01T00:00:00Z", "0000-12-31T23:59:59.999999Z", "0001-01-01T00:30:00+01:00"})
    void aTimestampBeforeTheYear1IsInvalid(String occurredAt) {
        ReadResult.Invalid invalid = assertInvalid(read(with(e -> e.put("occurred_at", occurredAt))));

        assertThat(invalid.errors())
                .containsExactly(new FieldError("occurred_at", "must not be before 0001-01-01T00:00:00Z"));
        assertThat(invalid.fields().occurredAt()).isNull();
    }

    @ParameterizedTest(name = "occurred_at {0}")
    @ValueSource(strings = {"0001-01-01T00:00:00Z", "0001-01-01T01:00:00+01:00", "0001-01-01T00:00:00-01:00"})
    void theEarliestTimestampIsTheFirstInstantOfTheYear1(String occurredAt) {
        ReadResult result = read(with(e -> e.put("occurred_at", occurredAt)));

        assertThat(result).isInstanceOf(ReadResult.Valid.class);
        assertThat(((ReadResult.Valid) result).event().occurredAt())
                .isAfterOrEqualTo(Instant.parse("0001-01-01T00:00:00Z"));
    }

    // ---------------------------------------------------------------- helpers

    private ReadResult read(Map<String, Object> event) {
        return reader.read(bytes(event));
    }

    private ReadResult read(byte[] value) {
        return reader.read(value);
    }

    private static ReadResult.Invalid assertInvalid(ReadResult result) {
        assertThat(result).isInstanceOf(ReadResult.Invalid.class);
        ReadResult.Invalid invalid = (ReadResult.Invalid) result;
        assertThat(invalid.dedupeId()).isEqualTo(DEDUPE_ID);
        return invalid;
    }

    private static void assertUnreadable(ReadResult result, String problem) {
        assertThat(result).isInstanceOf(ReadResult.Unreadable.class);
        assertThat(((ReadResult.Unreadable) result).problem()).contains(problem);
    }

    private static Map<String, Object> event() {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("dedupe_id", DEDUPE_ID.toString());
        event.put("entity_id", ENTITY_ID.toString());
        event.put("channel", "CARD");
        event.put("direction", "OUT");
        event.put("amount", 12_345);
        event.put("currency", "USD");
        event.put("occurred_at", NOW.minusSeconds(60).toString());
        return event;
    }

    private static Map<String, Object> with(Consumer<Map<String, Object>> change) {
        Map<String, Object> event = event();
        change.accept(event);
        return event;
    }

    private static Arguments variant(String description, Consumer<Map<String, Object>> change) {
        return Arguments.of(description, with(change));
    }

    private static Arguments invalid(String field, String message, Consumer<Map<String, Object>> change) {
        return Arguments.of(field, message, with(change));
    }

    private static byte[] bytes(Map<String, Object> event) {
        return JSON.writeValueAsBytes(event);
    }

    /** The valid event with one more member, written by hand. */
    private static String rawEvent(String extraMember) {
        String event = new String(bytes(event()), StandardCharsets.UTF_8);
        return event.substring(0, event.length() - 1) + "," + extraMember + "}";
    }

    private static byte[] eventWithRawAmount(String amount) {
        String event = new String(bytes(event()), StandardCharsets.UTF_8);
        return event.replace("\"amount\":12345", "\"amount\":" + amount).getBytes(StandardCharsets.UTF_8);
    }

    private static Object fieldValue(EventFields fields, String field) {
        return switch (field) {
            case "entity_id" -> fields.entityId();
            case "channel" -> fields.channel();
            case "direction" -> fields.direction();
            case "amount" -> fields.amount();
            case "currency" -> fields.currency();
            case "occurred_at" -> fields.occurredAt();
            case "account_id" -> fields.accountId();
            default -> throw new IllegalArgumentException(field);
        };
    }

    private static byte[] latin1Inside(byte[] event) {
        String text = new String(event, StandardCharsets.UTF_8);
        return (text.substring(0, text.length() - 1) + ",\"note\":\"café\"}").getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] garbage() {
        byte[] bytes = new byte[4096];
        new java.util.Random(42).nextBytes(bytes);
        bytes[0] = (byte) 0xFE; // never valid in UTF-8, whatever the random bytes are
        return bytes;
    }
}
