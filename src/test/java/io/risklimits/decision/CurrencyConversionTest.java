package io.risklimits.decision;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.hold.HoldLedger;
import io.risklimits.decision.hold.HoldOutcome;
import io.risklimits.decision.hold.HoldPolicy;
import io.risklimits.decision.hold.HoldReason.HoldRule;
import io.risklimits.decision.hold.HoldVerdict;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The conversion into the limit currency by example: currencies of 0, 3 and 4 decimals, and its refusals. */
class CurrencyConversionTest {

    private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");

    @Test
    void yenHaveNoDecimalsSoAYenAmountIsWholeYen() {
        // 15,001 yen at 0.0067 dollars a yen: 100.5067 dollars, 10,050.67 cents, counted as 10,051
        assertThat(usdPolicy("JPY", "0.0067", NOW).count(15_001, "JPY", NOW).amount())
                .isEqualTo(10_051);
    }

    @Test
    void kuwaitiDinarsHaveThreeDecimals() {
        // 1.235 dinars (1,235 fils) at 3.25 dollars a dinar: 4.01375 dollars, counted as 402 cents
        assertThat(usdPolicy("KWD", "3.25", NOW).count(1_235, "KWD", NOW).amount())
                .isEqualTo(402);
    }

    @Test
    void chileanUnidadesDeFomentoHaveFourDecimals() {
        // 1.0001 UF (10,001 units) at 41.5 dollars a UF: 41.50415 dollars, counted as 4,151 cents
        assertThat(usdPolicy("CLF", "41.5", NOW).count(10_001, "CLF", NOW).amount())
                .isEqualTo(4_151);
    }

    @Test
    void intoALimitCurrencyWithoutDecimalsTheCountRoundsUpToAWholeYen() {
        FxPolicy yen = new FxPolicy(
                "JPY", Duration.ofHours(48), (currency, at) -> new FxRate(currency, new BigDecimal("149.37"), NOW));
        // 1.01 dollars at 149.37 yen a dollar: 150.8637 yen, counted as 151
        assertThat(yen.count(101, "USD", NOW).amount()).isEqualTo(151);
    }

    @Test
    void theLimitCurrencyIsCountedAsItIsWithoutAConversion() {
        FxPolicy.Counted counted = FxPolicy.only("USD").count(1_234, "USD", NOW);

        assertThat(counted.amount()).isEqualTo(1_234);
        assertThat(counted.conversion()).isNull();
        assertThat(counted.refused()).isNull();
    }

    @Test
    void aCurrencyWithoutARateIsRefusedNoFxRate() {
        assertThat(FxPolicy.only("USD").count(100, "EUR", NOW).refused()).isEqualTo(Reason.NO_FX_RATE);
    }

    @Test
    void aRateValidOnlyAfterTheDecisionIsNoRate() {
        FxPolicy policy = new FxPolicy("USD", Duration.ofHours(48), (currency, at) -> null);

        assertThat(policy.count(100, "EUR", NOW).refused()).isEqualTo(Reason.NO_FX_RATE);
    }

    @Test
    void aRateOlderThanTheMaximumAgeIsRefusedFxRateStale() {
        Instant validFrom = NOW.minus(Duration.ofHours(48)).minusSeconds(1);

        assertThat(usdPolicy("EUR", "1.0842", validFrom).count(100, "EUR", NOW).refused())
                .isEqualTo(Reason.FX_RATE_STALE);
        assertThat(usdPolicy("EUR", "1.0842", validFrom.plusSeconds(1))
                        .count(100, "EUR", NOW)
                        .refused())
                .isNull();
    }

    @Test
    void theConversionNamesTheLimitCurrencyTheRateAndWhenItBecameValid() {
        Instant validFrom = NOW.minusSeconds(3_600);

        Conversion conversion =
                usdPolicy("EUR", "1.0842", validFrom).count(1_001, "EUR", NOW).conversion();

        assertThat(conversion).isEqualTo(new Conversion(1_086, "USD", new BigDecimal("1.0842"), validFrom));
    }

    @Test
    void aPartialReleaseRoundsDownAndTheOneThatLeavesNothingGivesBackEverythingStillCounted() {
        FxPolicy policy = FxPolicy.only("USD");
        Conversion original = new Conversion(1_129, "USD", new BigDecimal("1.13"), NOW);

        // 333 francs at 1.13: 376.29 cents, released 376
        long partial = policy.followUpAmount(EventType.REVERSAL, 333, "CHF", original, left(1_129, 999));
        // the other 666 francs (752.58 cents) leave nothing: the 753 cents still counted come back
        long rest = policy.followUpAmount(EventType.REVERSAL, 666, "CHF", original, left(1_129 - partial, 666));
        // 2,000 francs are 2,260 cents, more than is still counted: refused, and reported as 2,260
        long tooMuch = policy.followUpAmount(EventType.REVERSAL, 2_000, "CHF", original, left(1_129, 999));

        assertThat(partial).isEqualTo(376);
        assertThat(rest).isEqualTo(753);
        assertThat(tooMuch).isEqualTo(2_260);
    }

    @Test
    void theReversalThatLeavesNothingInItsOwnCurrencyGivesBackEverythingThoughItConvertsToLess() {
        FxPolicy policy = FxPolicy.only("USD");
        Conversion original = new Conversion(7_401, "USD", new BigDecimal("0.00074"), NOW);

        // 19,999 won are 1,479.926 cents; they are all that is left of the original, of which 1,481 are counted
        long rest = policy.followUpAmount(EventType.REVERSAL, 19_999, "KRW", original, left(1_481, 19_999));
        // one won less leaves one won: 1,479.852 cents, rounded down
        long partial = policy.followUpAmount(EventType.REVERSAL, 19_998, "KRW", original, left(1_481, 19_999));

        assertThat(rest).isEqualTo(1_481);
        assertThat(partial).isEqualTo(1_479);
    }

    @Test
    void aReversalOfMoreThanIsLeftInItsOwnCurrencyIsAnsweredRoundedUpThoughThatIsUnderWhatIsCounted() {
        FxPolicy policy = FxPolicy.only("USD");
        Conversion original = new Conversion(7_401, "USD", new BigDecimal("0.00074"), NOW);

        // 20,000 won are 1,480 cents, under the 1,481 counted, but one won more than the 19,999 left
        long tooMuch = policy.followUpAmount(EventType.REVERSAL, 20_000, "KRW", original, left(1_481, 19_999));
        HoldOutcome refused =
                HoldPolicy.reverse(HoldLedger.finalSpend(1_481, NOW).inOwnCurrency(19_999), tooMuch, 20_000, NOW);

        assertThat(tooMuch).isEqualTo(1_480);
        assertThat(refused.verdict()).isEqualTo(HoldVerdict.REJECTED);
        assertThat(refused.reason()).isEqualTo(HoldRule.EXCEEDS_REMAINING);
    }

    @Test
    void aCaptureIsJudgedAgainstWhatIsHeldInItsOwnCurrency() {
        FxPolicy policy = FxPolicy.only("USD");
        Conversion original = new Conversion(266, "USD", new BigDecimal("2.6596"), NOW);
        // 1,000 fils held, 265.96 cents, counted as 266; 180 of it held (398 fils, 105.85 cents)
        FxPolicy.Remaining left = new FxPolicy.Remaining(266, 180, 1_000, 398);

        // 301 fils: 80.05396 cents, taken from what is held rounded up
        long within = policy.followUpAmount(EventType.CAPTURE, 301, "BHD", original, left);
        // all 398 fils held: all 180 cents held
        long all = policy.followUpAmount(EventType.CAPTURE, 398, "BHD", original, left);
        // 500 fils: all that is held, and the other 102 fils (27.12792 cents) counted anew as 28
        long beyond = policy.followUpAmount(EventType.CAPTURE, 500, "BHD", original, left);

        assertThat(within).isEqualTo(81);
        assertThat(all).isEqualTo(180);
        assertThat(beyond).isEqualTo(180 + 28);
    }

    @Test
    void anIncrementIsCountedAnewRoundedUp() {
        Conversion original = new Conversion(1_129, "USD", new BigDecimal("1.13"), NOW);

        assertThat(FxPolicy.only("USD").followUpAmount(EventType.INCREMENT, 1, "CHF", original, left(1_129, 999)))
                .isEqualTo(2);
    }

    @Test
    void aLedgerFiledWithoutOwnFiguresIsJudgedInTheLimitCurrency() {
        FxPolicy policy = FxPolicy.only("USD");
        Conversion original = new Conversion(7_401, "USD", new BigDecimal("0.00074"), NOW);

        // 19,999 won: 1,479.926 cents, short of the 1,481 counted by more than the rounding
        assertThat(policy.followUpAmountInLimitCurrency(EventType.REVERSAL, 19_999, "KRW", original, 1_481, 1_481))
                .isEqualTo(1_479);
    }

    // what is left of a final spend: nothing held
    private static FxPolicy.Remaining left(long counted, long ownCounted) {
        return new FxPolicy.Remaining(counted, 0, ownCounted, 0);
    }

    private static FxPolicy usdPolicy(String currency, String rate, Instant validFrom) {
        return new FxPolicy(
                "USD",
                Duration.ofHours(48),
                (asked, at) -> asked.equals(currency) ? new FxRate(currency, new BigDecimal(rate), validFrom) : null);
    }
}
