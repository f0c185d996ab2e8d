package io.risklimits.decision;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The currency of an event: the limit currency or any ISO 4217 currency with a minor unit is read (its rate
 * is the decision's matter); any other code is INVALID.
 */
class TransactionEventReaderCurrencyTest {

    private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");
    private final TransactionEventReader reader =
            new TransactionEventReader("USD", Duration.ofMinutes(5), Clock.fixed(NOW, ZoneOffset.UTC));

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"USD", "EUR", "JPY", "KWD", "CLF", "CHF"})
    void anIsoCurrencyWithAMinorUnitIsRead(String currency) {
        ReadResult read = reader.read(event(currency));

        assertThat(read)
                .isInstanceOfSatisfying(
                        ReadResult.Valid.class,
                        valid -> assertThat(valid.event().currency()).isEqualTo(currency));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ABC", "XXX", "XAU", "QQQ"})
    void aCodeThatIsNoIsoCurrencyWithAMinorUnitIsInvalid(String currency) {
        ReadResult read = reader.read(event(currency));

        assertThat(read)
                .isInstanceOfSatisfying(
                        ReadResult.Invalid.class,
                        invalid -> assertThat(invalid.errors())
                                .containsExactly(
                                        new FieldError("currency", "must be an ISO 4217 currency with a minor unit")));
    }

    private static byte[] event(String currency) {
        return ("{\"dedupe_id\":\"" + UUID.randomUUID() + "\",\"entity_id\":\"" + UUID.randomUUID()
                        + "\",\"channel\":\"ACH\",\"direction\":\"OUT\",\"amount\":100,\"currency\":\"" + currency
                        + "\",\"occurred_at\":\"2026-03-10T11:59:00Z\"}")
                .getBytes(StandardCharsets.UTF_8);
    }
}
