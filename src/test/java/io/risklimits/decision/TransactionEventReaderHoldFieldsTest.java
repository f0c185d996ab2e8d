package io.risklimits.decision;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.DecisionSchema;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The follow-up and hold fields of the transaction event (original, hold_expires_at, final, and reverses
 * beside original), rule by rule: what reads as a capture, an increment, a reversal or a hold, and which
 * field an event that breaks a rule is INVALID for. The event schema is held to the same answers.
 */
class TransactionEventReaderHoldFieldsTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    private static final Instant OCCURRED_AT = NOW.minusSeconds(60);
    private static final Duration MAX_CLOCK_SKEW = Duration.ofMinutes(5);
    private static final Duration MAX_HOLD_TTL = Duration.ofDays(30);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final UUID DEDUPE_ID = UUID.fromString("5a1c33e4-0d7b-4f4e-9c1e-1f2a3b4c5d6e");
    private static final UUID ENTITY_ID = UUID.fromString("0b7e1a52-94a5-4e3c-8c9f-6d0e2f3a4b5c");
    private static final UUID ORIGINAL = UUID.fromString("9c2d7e1f-3a4b-4c5d-8e6f-7a8b9c0d1e2f");
    private static final UUID OTHER = UUID.fromString("1f0e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b");
    private static final String IN_A_DAY = OCCURRED_AT.plus(Duration.ofDays(1)).toString();

    private final TransactionEventReader reader =
            new TransactionEventReader("USD", MAX_CLOCK_SKEW, MAX_HOLD_TTL, Clock.fixed(NOW, ZoneOffset.UTC));

    // ---------------------------------------------------------------- valid follow-ups and holds

    @Test
    void aCaptureNamesItsAuthorizationInOriginalAndIsFinalByDefault() {
        TransactionEvent capture = valid(with(e -> {
            e.put("type", "CAPTURE");
            e.put("original", ORIGINAL.toString());
        }));

        assertThat(capture.type()).isEqualTo(EventType.CAPTURE);
        assertThat(capture.original()).isEqualTo(ORIGINAL);
        assertThat(capture.originalId()).isEqualTo(ORIGINAL);
        assertThat(capture.reverses()).isNull();
        assertThat(capture.isFinal()).isTrue();
        assertThat(capture.fields().isFinal()).isTrue();
        assertThat(valid(with(e -> {
                            e.put("type", "CAPTURE");
                            e.put("original", ORIGINAL.toString());
                            e.put("final", null);
                        }))
                        .isFinal())
                .isTrue();
    }

    @Test
    void aCaptureThatIsNotFinalSaysSo() {
        TransactionEvent capture = valid(with(e -> {
            e.put("type", "CAPTURE");
            e.put("original", ORIGINAL.toString());
            e.put("final", false);
        }));

        assertThat(capture.isFinal()).isFalse();
        assertThat(capture.fields().isFinal()).isFalse();
    }

    @Test
    void anIncrementNamesItsHoldAndMayMoveItsExpiry() {
        TransactionEvent increment = valid(with(e -> {
            e.put("type", "INCREMENT");
            e.put("original", ORIGINAL.toString());
            e.put("hold_expires_at", IN_A_DAY);
        }));

        assertThat(increment.type()).isEqualTo(EventType.INCREMENT);
        assertThat(increment.originalId()).isEqualTo(ORIGINAL);
        assertThat(increment.holdExpiresAt()).isEqualTo(Instant.parse(IN_A_DAY));
        assertThat(increment.fields().isFinal()).isNull();
        assertThat(valid(with(e -> {
                            e.put("type", "INCREMENT");
                            e.put("original", ORIGINAL.toString());
                        }))
                        .holdExpiresAt())
                .isNull();
    }

    @Test
    void aReversalMayNameItsOriginalInOriginalInsteadOfReverses() {
        TransactionEvent reversal = valid(with(e -> {
            e.put("type", "REVERSAL");
            e.put("original", ORIGINAL.toString());
        }));

        assertThat(reversal.reverses()).isNull();
        assertThat(reversal.original()).isEqualTo(ORIGINAL);
        assertThat(reversal.originalId()).isEqualTo(ORIGINAL);
    }

    @Test
    void aReversalMayNameItsOriginalInBothFieldsWhenTheyAreEqual() {
        TransactionEvent reversal = valid(with(e -> {
            e.put("type", "REVERSAL");
            e.put("reverses", ORIGINAL.toString());
            e.put("original", ORIGINAL.toString().toUpperCase());
        }));

        assertThat(reversal.reverses()).isEqualTo(ORIGINAL);
        assertThat(reversal.original()).isEqualTo(ORIGINAL);
    }

    @Test
    void anAuthorizationMayNameWhenItsHoldExpiresUpToTheMaximumHoldTime() {
        TransactionEvent hold = valid(with(e -> e.put("hold_expires_at", IN_A_DAY)));
        TransactionEvent longest = valid(with(
                e -> e.put("hold_expires_at", OCCURRED_AT.plus(MAX_HOLD_TTL).toString())));
        TransactionEvent shortest = valid(
                with(e -> e.put("hold_expires_at", OCCURRED_AT.plusNanos(1000).toString())));

        assertThat(hold.holdExpiresAt()).isEqualTo(Instant.parse(IN_A_DAY));
        assertThat(longest.holdExpiresAt()).isEqualTo(OCCURRED_AT.plus(MAX_HOLD_TTL));
        assertThat(shortest.holdExpiresAt()).isEqualTo(OCCURRED_AT.plusNanos(1000));
        assertThat(hold.original()).isNull();
        assertThat(hold.fields().isFinal()).isNull();
    }

    @Test
    void nullHoldFieldsAreAbsentOnEveryType() {
        TransactionEvent authorization = valid(with(e -> {
            e.put("original", null);
            e.put("hold_expires_at", null);
            e.put("final", null);
        }));
        TransactionEvent capture = valid(with(e -> {
            e.put("type", "CAPTURE");
            e.put("original", ORIGINAL.toString());
            e.put("reverses", null);
            e.put("hold_expires_at", null);
        }));

        assertThat(authorization.original()).isNull();
        assertThat(authorization.holdExpiresAt()).isNull();
        assertThat(capture.reverses()).isNull();
        assertThat(capture.holdExpiresAt()).isNull();
    }

    @Test
    void theMaximumHoldTimeIsTheReadersOwn() {
        TransactionEventReader shortHolds = new TransactionEventReader(
                "USD", MAX_CLOCK_SKEW, Duration.ofHours(2), Clock.fixed(NOW, ZoneOffset.UTC));

        ReadResult result = shortHolds.read(bytes(with(e -> e.put("hold_expires_at", IN_A_DAY))));

        assertThat(assertInvalid(result).errors())
                .containsExactly(new FieldError(
                        "hold_expires_at", "must be at most PT2H (risk.holds.max-ttl) after occurred_at"));
    }

    // ---------------------------------------------------------------- invalid: one hold field breaks a rule

    static Stream<Arguments> brokenHoldFields() {
        String notRfc3339 = "must be an RFC 3339 timestamp, e.g. 2026-11-29T10:15:30Z";
        String tooLate = "must be at most PT720H (risk.holds.max-ttl) after occurred_at";
        return Stream.of(
                // original
                invalid("original", "is required for a CAPTURE", e -> e.put("type", "CAPTURE")),
                invalid("original", "is required for an INCREMENT", e -> {
                    e.put("type", "INCREMENT");
                    e.put("original", null);
                }),
                invalid("original", "must be absent for an AUTHORIZATION", e -> e.put("original", ORIGINAL.toString())),
                invalid("original", "must be absent for an AUTHORIZATION", e -> {
                    e.put("type", "AUTHORIZATION");
                    e.put("original", ORIGINAL.toString());
                }),
                invalid("original", "must be a UUID string", e -> {
                    e.put("type", "CAPTURE");
                    e.put("original", "not-a-uuid");
                }),
                invalid("original", "must be a UUID string", e -> {
                    e.put("type", "INCREMENT");
                    e.put("original", 42);
                }),
                invalid("original", "must be a UUID string", e -> {
                    e.put("type", "REVERSAL");
                    e.put("original", ORIGINAL.toString().replace("-", ""));
                }),
                invalid("original", "must be another event's dedupe_id, not the event's own", e -> {
                    e.put("type", "CAPTURE");
                    e.put("original", DEDUPE_ID.toString());
                }),
                invalid("original", "must equal reverses when a REVERSAL has both", e -> {
                    e.put("type", "REVERSAL");
                    e.put("reverses", ORIGINAL.toString());
                    e.put("original", OTHER.toString());
                }),
                // reverses: a reversal names its original in one of the two
                invalid("reverses", "is required for a REVERSAL (or original)", e -> {
                    e.put("type", "REVERSAL");
                    e.put("reverses", null);
                    e.put("original", null);
                }),
                invalid("reverses", "must be absent unless type is REVERSAL", e -> {
                    e.put("type", "CAPTURE");
                    e.put("reverses", ORIGINAL.toString());
                    e.put("original", ORIGINAL.toString());
                }),
                invalid("reverses", "must be absent unless type is REVERSAL", e -> {
                    e.put("type", "INCREMENT");
                    e.put("reverses", ORIGINAL.toString());
                    e.put("original", ORIGINAL.toString());
                }),
                // hold_expires_at
                invalid("hold_expires_at", "must be absent unless type is AUTHORIZATION or INCREMENT", e -> {
                    e.put("type", "CAPTURE");
                    e.put("original", ORIGINAL.toString());
                    e.put("hold_expires_at", IN_A_DAY);
                }),
                invalid("hold_expires_at", "must be absent unless type is AUTHORIZATION or INCREMENT", e -> {
                    e.put("type", "REVERSAL");
                    e.put("reverses", ORIGINAL.toString());
                    e.put("hold_expires_at", IN_A_DAY);
                }),
                invalid("hold_expires_at", notRfc3339, e -> e.put("hold_expires_at", "tomorrow")),
                invalid("hold_expires_at", notRfc3339, e -> e.put("hold_expires_at", "")),
                invalid("hold_expires_at", notRfc3339, e -> e.put("hold_expires_at", "2026-03-02T11:00:00")),
                invalid("hold_expires_at", notRfc3339, e -> e.put("hold_expires_at", NOW.toEpochMilli())),
                invalid("hold_expires_at", notRfc3339, e -> e.put("hold_expires_at", true)),
                invalid(
                        "hold_expires_at",
                        notRfc3339,
                        e -> e.put("hold_expires_at", "2026-03-02T11:00:00." + "1".repeat(80) + "Z")),
                invalid(
                        "hold_expires_at",
                        "must be after occurred_at",
                        e -> e.put("hold_expires_at", OCCURRED_AT.toString())),
                invalid(
                        "hold_expires_at",
                        "must be after occurred_at",
                        e -> e.put(
                                "hold_expires_at", OCCURRED_AT.minusSeconds(1).toString())),
                invalid("hold_expires_at", "must be after occurred_at", e -> {
                    e.put("type", "INCREMENT");
                    e.put("original", ORIGINAL.toString());
                    e.put("hold_expires_at", "2026-03-01T12:59:00+01:00"); // occurred_at itself, offset applied
                }),
                invalid(
                        "hold_expires_at",
                        tooLate,
                        e -> e.put(
                                "hold_expires_at",
                                OCCURRED_AT.plus(MAX_HOLD_TTL).plusMillis(1).toString())),
                invalid("hold_expires_at", tooLate, e -> {
                    e.put("type", "INCREMENT");
                    e.put("original", ORIGINAL.toString());
                    e.put("hold_expires_at", "9999-12-31T23:59:59Z");
                }),
                // final
                invalid("final", "must be absent unless type is CAPTURE", e -> e.put("final", true)),
                invalid("final", "must be absent unless type is CAPTURE", e -> {
                    e.put("type", "INCREMENT");
                    e.put("original", ORIGINAL.toString());
                    e.put("final", false);
                }),
                invalid("final", "must be absent unless type is CAPTURE", e -> {
                    e.put("type", "REVERSAL");
                    e.put("reverses", ORIGINAL.toString());
                    e.put("final", true);
                }),
                invalid("final", "must be true or false", e -> {
                    e.put("type", "CAPTURE");
                    e.put("original", ORIGINAL.toString());
                    e.put("final", "true");
                }),
                invalid("final", "must be true or false", e -> {
                    e.put("type", "CAPTURE");
                    e.put("original", ORIGINAL.toString());
                    e.put("final", 0);
                }),
                // type: EXPIRY is the service's own, never an event's
                invalid("type", "must be AUTHORIZATION, REVERSAL, CAPTURE or INCREMENT", e -> {
                    e.put("type", "EXPIRY");
                    e.put("original", ORIGINAL.toString());
                }),
                invalid("type", "must be AUTHORIZATION, REVERSAL, CAPTURE or INCREMENT", e -> {
                    e.put("type", "capture");
                    e.put("original", ORIGINAL.toString());
                }));
    }

    @ParameterizedTest(name = "{0}: {1} ({index})")
    @MethodSource("brokenHoldFields")
    void aBrokenHoldFieldMakesTheEventInvalidNamingThatField(String field, String message, Map<String, Object> event) {
        ReadResult.Invalid invalid = assertInvalid(reader.read(bytes(event)));

        assertThat(invalid.errors()).containsExactly(new FieldError(field, message));
    }

    @Test
    void anInvalidCaptureEchoesItsTypeOriginalAndFinal() {
        ReadResult.Invalid invalid = assertInvalid(reader.read(bytes(with(e -> {
            e.put("type", "CAPTURE");
            e.put("original", ORIGINAL.toString());
            e.put("final", false);
            e.put("amount", 0);
        }))));

        assertThat(invalid.errors()).extracting(FieldError::field).containsExactly("amount");
        assertThat(invalid.fields().type()).isEqualTo(EventType.CAPTURE);
        assertThat(invalid.fields().original()).isEqualTo(ORIGINAL);
        assertThat(invalid.fields().originalId()).isEqualTo(ORIGINAL);
        assertThat(invalid.fields().isFinal()).isFalse();
    }

    @Test
    void everyBrokenHoldFieldIsReportedAtOnceInContractOrder() {
        ReadResult.Invalid invalid = assertInvalid(reader.read(bytes(with(e -> {
            e.put("type", "CAPTURE");
            e.put("reverses", ORIGINAL.toString());
            e.put("original", "nope");
            e.put("account_id", "nope");
            e.put("hold_expires_at", IN_A_DAY);
            e.put("final", "no");
        }))));

        assertThat(invalid.errors())
                .extracting(FieldError::field)
                .containsExactly("reverses", "original", "account_id", "hold_expires_at", "final");
    }

    // ---------------------------------------------------------------- the event schema agrees

    /**
     * The event schema says of the hold fields what the reader does, for every rule a JSON Schema can
     * state (not the comparisons with dedupe_id, reverses and occurred_at, which the schema's descriptions
     * give in words).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("holdFieldShapes")
    void theEventSchemaAcceptsExactlyTheHoldFieldsTheReaderAccepts(String description, Map<String, Object> event) {
        byte[] value = bytes(event);

        boolean valid = reader.read(value) instanceof ReadResult.Valid;

        assertThat(DecisionSchema.isValidEvent(value)).as(description).isEqualTo(valid);
    }

    static Stream<Arguments> holdFieldShapes() {
        return Stream.of(
                variant("a capture", e -> {
                    e.put("type", "CAPTURE");
                    e.put("original", ORIGINAL.toString());
                }),
                variant("a capture, not final", e -> {
                    e.put("type", "CAPTURE");
                    e.put("original", ORIGINAL.toString());
                    e.put("final", false);
                }),
                variant("a capture, final null", e -> {
                    e.put("type", "CAPTURE");
                    e.put("original", ORIGINAL.toString());
                    e.put("final", null);
                }),
                variant("an increment moving the expiry", e -> {
                    e.put("type", "INCREMENT");
                    e.put("original", ORIGINAL.toString());
                    e.put("hold_expires_at", IN_A_DAY);
                }),
                variant("a reversal naming original alone", e -> {
                    e.put("type", "REVERSAL");
                    e.put("original", ORIGINAL.toString());
                }),
                variant("a reversal naming both, equal", e -> {
                    e.put("type", "REVERSAL");
                    e.put("reverses", ORIGINAL.toString());
                    e.put("original", ORIGINAL.toString());
                }),
                variant("an authorization with its hold's expiry", e -> e.put("hold_expires_at", IN_A_DAY)),
                variant("an authorization with every hold field null", e -> {
                    e.put("original", null);
                    e.put("hold_expires_at", null);
                    e.put("final", null);
                }),
                variant("a capture without original", e -> e.put("type", "CAPTURE")),
                variant("an increment with a null original", e -> {
                    e.put("type", "INCREMENT");
                    e.put("original", null);
                }),
                variant("a capture with original not a UUID", e -> {
                    e.put("type", "CAPTURE");
                    e.put("original", "not-a-uuid");
                }),
                variant("an increment with a numeric original", e -> {
                    e.put("type", "INCREMENT");
                    e.put("original", 42);
                }),
                variant("an authorization with original", e -> e.put("original", ORIGINAL.toString())),
                variant("a reversal naming neither", e -> e.put("type", "REVERSAL")),
                variant("a reversal with both null", e -> {
                    e.put("type", "REVERSAL");
                    e.put("reverses", null);
                    e.put("original", null);
                }),
                variant("a capture with reverses", e -> {
                    e.put("type", "CAPTURE");
                    e.put("reverses", ORIGINAL.toString());
                    e.put("original", ORIGINAL.toString());
                }),
                variant("a capture with hold_expires_at", e -> {
                    e.put("type", "CAPTURE");
                    e.put("original", ORIGINAL.toString());
                    e.put("hold_expires_at", IN_A_DAY);
                }),
                variant("a reversal with hold_expires_at", e -> {
                    e.put("type", "REVERSAL");
                    e.put("original", ORIGINAL.toString());
                    e.put("hold_expires_at", IN_A_DAY);
                }),
                variant("hold_expires_at not a timestamp", e -> e.put("hold_expires_at", "tomorrow")),
                variant("hold_expires_at a number", e -> e.put("hold_expires_at", NOW.toEpochMilli())),
                variant("an authorization with final", e -> e.put("final", true)),
                variant("an increment with final", e -> {
                    e.put("type", "INCREMENT");
                    e.put("original", ORIGINAL.toString());
                    e.put("final", false);
                }),
                variant("a capture with final a string", e -> {
                    e.put("type", "CAPTURE");
                    e.put("original", ORIGINAL.toString());
                    e.put("final", "true");
                }),
                variant("type EXPIRY", e -> {
                    e.put("type", "EXPIRY");
                    e.put("original", ORIGINAL.toString());
                }));
    }

    // ---------------------------------------------------------------- helpers

    private TransactionEvent valid(Map<String, Object> event) {
        ReadResult result = reader.read(bytes(event));
        assertThat(result).isInstanceOf(ReadResult.Valid.class);
        return ((ReadResult.Valid) result).event();
    }

    private static ReadResult.Invalid assertInvalid(ReadResult result) {
        assertThat(result).isInstanceOf(ReadResult.Invalid.class);
        ReadResult.Invalid invalid = (ReadResult.Invalid) result;
        assertThat(invalid.dedupeId()).isEqualTo(DEDUPE_ID);
        return invalid;
    }

    private static Map<String, Object> with(Consumer<Map<String, Object>> change) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("dedupe_id", DEDUPE_ID.toString());
        event.put("entity_id", ENTITY_ID.toString());
        event.put("channel", "CARD");
        event.put("direction", "OUT");
        event.put("amount", 12_345);
        event.put("currency", "USD");
        event.put("occurred_at", OCCURRED_AT.toString());
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
}
