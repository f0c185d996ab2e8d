package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Conversion;
import io.risklimits.decision.Decision;
import io.risklimits.decision.Direction;
import io.risklimits.decision.EventType;
import io.risklimits.decision.FxPolicy;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Reason;
import io.risklimits.decision.Tally;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.Window;
import io.risklimits.limits.FxRateCatalog;
import io.risklimits.support.TestInfrastructure;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Events in other currencies than the limit currency (USD) through the batched store against a real
 * PostgreSQL, at the rates of risk_fx_rate: what is counted, what is refused, what is stored and replayed,
 * and follow-ups at their original's rate. Each test uses currencies of its own, so the rates it writes
 * are its own.
 */
class CurrenciesIT {

    private final DataSource dataSource = TestInfrastructure.get().dataSource();
    private final JdbcTemplate db = new JdbcTemplate(dataSource);
    private final FxRateCatalog rates = new FxRateCatalog(JdbcClient.create(dataSource));
    private final BatchDecisionStore store =
            TestStores.batchDecisionStore(dataSource, new FxPolicy("USD", Duration.ofHours(48), rates));

    @Test
    void anAuthorizationInAnotherCurrencyIsCountedConvertedRoundedUpStoredAndReplayed() {
        Instant validFrom = rate("EUR", "1.0842", Duration.ofHours(1));
        BusinessKey key = newKey("ACH");
        TransactionEvent authorization = event(key, 1_001, "EUR", EventType.AUTHORIZATION, null);

        Decision decided = decide(authorization);
        Decision replayed = decide(authorization);

        assertThat(decided.verdict()).isEqualTo(Verdict.APPROVED);
        // 10.01 euros at 1.0842: 1,085.2842 cents, counted as 1,086
        assertThat(decided.conversion()).isEqualTo(new Conversion(1_086, "USD", new BigDecimal("1.0842"), validFrom));
        assertThat(decide(event(key, 1, "USD", EventType.AUTHORIZATION, null))
                        .usage()
                        .of(Window.LAST_24_HOURS))
                .isEqualTo(new Tally(1_086, 1));
        assertThat(replayed.replayed()).isTrue();
        assertThat(replayed.conversion()).isEqualTo(decided.conversion());
        assertThat(replayed.fields().amount()).isEqualTo(1_001);
        assertThat(replayed.fields().currency()).isEqualTo("EUR");
    }

    @Test
    void aCurrencyWithoutARateIsRejectedNoFxRateAndCountsNothing() {
        BusinessKey key = newKey("ACH");

        Decision decision = decide(event(key, 500, "ISK", EventType.AUTHORIZATION, null));

        assertThat(decision.verdict()).isEqualTo(Verdict.REJECTED);
        assertThat(decision.reason()).isEqualTo(Reason.NO_FX_RATE);
        assertThat(decision.conversion()).isNull();
        assertThat(usageOf(key)).isEqualTo(Tally.ZERO);
    }

    @Test
    void aRateOlderThanTheMaximumAgeIsRejectedFxRateStaleAndCountsNothing() {
        rate("NOK", "0.094", Duration.ofHours(49));
        BusinessKey key = newKey("ACH");

        Decision decision = decide(event(key, 500, "NOK", EventType.AUTHORIZATION, null));

        assertThat(decision.verdict()).isEqualTo(Verdict.REJECTED);
        assertThat(decision.reason()).isEqualTo(Reason.FX_RATE_STALE);
        assertThat(usageOf(key)).isEqualTo(Tally.ZERO);
    }

    @Test
    void aFollowUpInAnotherCurrencyThanItsOriginalIsRejectedCurrencyMismatch() {
        rate("SEK", "0.095", Duration.ofHours(1));
        BusinessKey key = newKey("ACH");
        TransactionEvent authorization = event(key, 10_000, "SEK", EventType.AUTHORIZATION, null);
        long counted = decide(authorization).conversion().countedAmount();

        Decision reversal = decide(event(key, 100, "USD", EventType.REVERSAL, authorization));

        assertThat(reversal.verdict()).isEqualTo(Verdict.REJECTED);
        assertThat(reversal.reason()).isEqualTo(Reason.CURRENCY_MISMATCH);
        assertThat(usageOf(key)).isEqualTo(new Tally(counted, 1));
    }

    @Test
    void afterARateChangeAPartialReversalRoundsDownAndTheLastGivesBackExactlyWhatWasCounted() {
        Instant firstValidFrom = rate("CHF", "1.13", Duration.ofHours(2));
        BusinessKey key = newKey("CARD");
        TransactionEvent hold = event(key, 999, "CHF", EventType.AUTHORIZATION, null);
        Decision authorized = decide(hold);
        rate("CHF", "2", Duration.ofMinutes(1));

        Decision partial = decide(event(key, 333, "CHF", EventType.REVERSAL, hold));
        Decision rest = decide(event(key, 666, "CHF", EventType.REVERSAL, hold));

        // 9.99 francs at 1.13: 1,128.87 cents, counted as 1,129
        assertThat(authorized.conversion().countedAmount()).isEqualTo(1_129);
        // 3.33 francs at the original's 1.13, not today's 2: 376.29 cents, given back as 376
        assertThat(partial.released()).isEqualTo(new Tally(376, 0));
        assertThat(partial.conversion()).isEqualTo(new Conversion(376, "USD", new BigDecimal("1.13"), firstValidFrom));
        assertThat(partial.remaining()).isEqualTo(753);
        // the rest of the original: everything still counted, with the count
        assertThat(rest.released()).isEqualTo(new Tally(753, 1));
        assertThat(rest.remaining()).isZero();
        assertThat(usageOf(key)).isEqualTo(Tally.ZERO);
    }

    @Test
    void aCaptureOfAForeignHoldTakesFromWhatIsHeldAtTheHoldsRate() {
        rate("JPY", "0.0067", Duration.ofHours(1));
        BusinessKey key = newKey("CARD");
        TransactionEvent hold = event(key, 15_000, "JPY", EventType.AUTHORIZATION, null);
        Decision authorized = decide(hold);
        rate("JPY", "0.0070", Duration.ofMinutes(1));

        Decision captured = decide(event(key, 12_000, "JPY", EventType.CAPTURE, hold));

        // 15,000 yen at 0.0067: 100.50 dollars held
        assertThat(authorized.conversion().countedAmount()).isEqualTo(10_050);
        // 12,000 yen at the hold's 0.0067: 80.40 dollars captured, the other 20.10 released by the final capture
        assertThat(captured.verdict()).isEqualTo(Verdict.CAPTURED);
        assertThat(captured.captured()).isEqualTo(8_040);
        assertThat(captured.overCaptured()).isZero();
        assertThat(captured.released()).isEqualTo(new Tally(2_010, 0));
        assertThat(usageOf(key)).isEqualTo(new Tally(8_040, 1));
    }

    private Decision decide(TransactionEvent event) {
        return store.decideAll(List.of(event), anyKey -> Limits.NONE).get(0);
    }

    // the key's usage over the last 24 hours, as an authorization of it would read it
    private Tally usageOf(BusinessKey key) {
        return new SummedUsage(dataSource)
                .usageUpTo(key, Instant.now().truncatedTo(ChronoUnit.HOURS))
                .of(Window.LAST_24_HOURS);
    }

    /** A rate of the currency, valid from this long before the database clock; the catalog reloaded. */
    private Instant rate(String currency, String rate, Duration ago) {
        Instant validFrom = db.queryForObject("SELECT now()", Timestamp.class)
                .toInstant()
                .minus(ago)
                .truncatedTo(ChronoUnit.MICROS);
        db.update(
                "INSERT INTO risk_fx_rate (currency, rate, valid_from) VALUES (?, ?, ?)"
                        + " ON CONFLICT (currency, valid_from) DO UPDATE SET rate = excluded.rate",
                currency,
                new BigDecimal(rate),
                Timestamp.from(validFrom));
        rates.refresh();
        return validFrom;
    }

    private static BusinessKey newKey(String channel) {
        return new BusinessKey(UUID.randomUUID(), channel, Direction.OUT);
    }

    private static TransactionEvent event(
            BusinessKey key, long amount, String currency, EventType type, TransactionEvent original) {
        return new TransactionEvent(
                UUID.randomUUID(),
                key,
                amount,
                currency,
                Instant.now().truncatedTo(ChronoUnit.MICROS),
                type,
                type == EventType.REVERSAL ? original.dedupeId() : null,
                null,
                type == EventType.CAPTURE ? original.dedupeId() : null,
                null,
                true);
    }
}
