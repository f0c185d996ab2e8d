package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Conversion;
import io.risklimits.decision.Decision;
import io.risklimits.decision.EventType;
import io.risklimits.decision.FxPolicy;
import io.risklimits.decision.FxRate;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Reason;
import io.risklimits.decision.Tally;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.Window;
import io.risklimits.limits.FxRateCatalog;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.TestInfrastructure;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Events in other currencies than the limit currency (USD) through the batched store against a real
 * PostgreSQL, at the rates of risk_fx_rate: what is counted, what is refused, what is stored and replayed,
 * and follow-ups at their original's rate. Each test uses currencies of its own, so the rates it writes
 * are its own; it deletes them after it, with its keys' rows, as other tests convert at the rates they find.
 */
@ExtendWith(NoRowsLeftBehind.class)
class CurrenciesIT {

    private final DataSource dataSource = TestInfrastructure.get().dataSource();
    private final JdbcTemplate db = new JdbcTemplate(dataSource);
    private final FxRateCatalog rates = new FxRateCatalog(JdbcClient.create(dataSource));
    private final BatchDecisionStore store =
            TestStores.batchDecisionStore(dataSource, new FxPolicy("USD", Duration.ofHours(48), rates));
    private final TestKeys ownKeys = new TestKeys();
    private final List<FxRate> ratesWritten = new ArrayList<>();

    @AfterEach
    void deleteTheRowsWritten() {
        ownKeys.deleteTheirRows(db);
        ratesWritten.forEach(rate -> db.update(
                "DELETE FROM risk_fx_rate WHERE currency = ? AND valid_from = ?",
                rate.currency(),
                Timestamp.from(rate.validFrom())));
    }

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

    @Test
    void partialReversalsSummingToTheOriginalInItsOwnCurrencyLeaveNothingCounted() {
        rate("KRW", "0.00074", Duration.ofHours(1));
        BusinessKey key = newKey("ACH");
        TransactionEvent authorization = event(key, 100_001, "KRW", EventType.AUTHORIZATION, null);
        Decision authorized = decide(authorization);

        Decision first = decide(event(key, 40_001, "KRW", EventType.REVERSAL, authorization));
        Decision second = decide(event(key, 40_001, "KRW", EventType.REVERSAL, authorization));
        Decision rest = decide(event(key, 19_999, "KRW", EventType.REVERSAL, authorization));

        // 100,001 won at 0.00074: 7,400.074 cents, counted as 7,401
        assertThat(authorized.conversion().countedAmount()).isEqualTo(7_401);
        // 40,001 won: 2,960.074 cents, given back as 2,960, twice
        assertThat(first.released()).isEqualTo(new Tally(2_960, 0));
        assertThat(second.released()).isEqualTo(new Tally(2_960, 0));
        // the last 19,999 won leave nothing of the original: everything still counted, with the count
        assertThat(rest.released()).as("the reversal of the rest").isEqualTo(new Tally(1_481, 1));
        assertThat(rest.remaining()).isZero();
        assertThat(usageOf(key)).isEqualTo(Tally.ZERO);
    }

    @Test
    void aReversalOfOneMinorUnitMoreThanIsLeftOfTheOriginalIsExceedsRemaining() {
        rate("KRW", "0.00074", Duration.ofHours(1));
        BusinessKey key = newKey("ACH");
        TransactionEvent authorization = event(key, 100_001, "KRW", EventType.AUTHORIZATION, null);
        decide(authorization);
        decide(event(key, 40_001, "KRW", EventType.REVERSAL, authorization));
        decide(event(key, 40_001, "KRW", EventType.REVERSAL, authorization));

        // 19,999 won are left of the original; 20,000 won convert to 1,480 cents, under the 1,481 counted
        Decision tooMuch = decide(event(key, 20_000, "KRW", EventType.REVERSAL, authorization));

        assertThat(tooMuch.verdict())
                .as("a reversal of 20,000 of the 19,999 won left")
                .isEqualTo(Verdict.REJECTED);
        assertThat(tooMuch.reason()).isEqualTo(Reason.EXCEEDS_REMAINING);
        assertThat(tooMuch.conversion().countedAmount()).isEqualTo(1_480);
        assertThat(usageOf(key)).isEqualTo(new Tally(1_481, 1));
    }

    @Test
    void aForeignHoldPartlyCapturedThenReversedInPartsSummingToItsAmountLeavesNothingCounted() {
        rate("BHD", "2.6596", Duration.ofHours(1));
        BusinessKey key = newKey("CARD");
        TransactionEvent hold = event(key, 1_000, "BHD", EventType.AUTHORIZATION, null);
        Decision authorized = decide(hold);

        Decision firstCapture = decide(capture(key, 301, "BHD", hold, false));
        Decision secondCapture = decide(capture(key, 301, "BHD", hold, false));
        Decision first = decide(event(key, 299, "BHD", EventType.REVERSAL, hold));
        Decision second = decide(event(key, 299, "BHD", EventType.REVERSAL, hold));
        Decision rest = decide(event(key, 402, "BHD", EventType.REVERSAL, hold));

        // 1 dinar (1,000 fils) at 2.6596: 265.96 cents held, counted as 266
        assertThat(authorized.conversion().countedAmount()).isEqualTo(266);
        // 301 fils: 80.05396 cents, captured as 81 from what is held, twice
        assertThat(firstCapture.captured()).isEqualTo(81);
        assertThat(secondCapture.captured()).isEqualTo(81);
        // 299 fils: 79.5220 cents, given back as 79, twice
        assertThat(first.released()).isEqualTo(new Tally(79, 0));
        assertThat(second.released()).isEqualTo(new Tally(79, 0));
        assertThat(rest.released()).as("the reversal of the rest").isEqualTo(new Tally(108, 1));
        assertThat(usageOf(key)).isEqualTo(Tally.ZERO);
    }

    /**
     * The usage of a key that no limit checks is not read; its windows still reject once they would reach
     * the end of the long range (docs/contract.md, "Limits"). 4e18 counted this hour is below half the
     * range, so the batch leaves the key's usage unread; an authorization counted as 5.3e18 (10^15 cents at
     * 5,300) could take a window past the end with it, so the batch reads the usage after all, and rejects:
     * 9.3e18 is beyond the largest long. Without that, the usage left unread (none) would approve it.
     */
    @Test
    void anAmountThatCouldTakeAnUncheckedKeyPastTheLongRangeIsCheckedAgainstItsUsage() {
        rate("AUD", "5300", Duration.ofHours(1));
        BusinessKey key = newKey("ACH");
        LocalDateTime hour =
                db.queryForObject("SELECT date_trunc('hour', now() AT TIME ZONE 'UTC')", LocalDateTime.class);
        BucketRows.add(db, key, hour, 4_000_000_000_000_000_000L);

        Decision decided = store.decideAll(
                        List.of(event(key, 1_000_000_000_000_000L, "AUD", EventType.AUTHORIZATION, null)),
                        anyKey -> Limits.NONE)
                .get(0);

        assertThat(decided.conversion().countedAmount()).isEqualTo(5_300_000_000_000_000_000L);
        assertThat(decided.verdict()).isEqualTo(Verdict.REJECTED);
        assertThat(decided.reason()).isEqualTo(Reason.LIMIT_24H_AMOUNT);
    }

    private Decision decide(TransactionEvent event) {
        return store.decideAll(List.of(event), anyKey -> TestStores.FAR_LIMITS).get(0);
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
        ratesWritten.add(new FxRate(currency, new BigDecimal(rate), validFrom));
        rates.refresh();
        return validFrom;
    }

    private BusinessKey newKey(String channel) {
        return ownKeys.newKey(channel);
    }

    private static TransactionEvent capture(
            BusinessKey key, long amount, String currency, TransactionEvent original, boolean isFinal) {
        return new TransactionEvent(
                UUID.randomUUID(),
                key,
                amount,
                currency,
                Instant.now().truncatedTo(ChronoUnit.MICROS),
                EventType.CAPTURE,
                null,
                null,
                original.dedupeId(),
                null,
                isFinal);
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
