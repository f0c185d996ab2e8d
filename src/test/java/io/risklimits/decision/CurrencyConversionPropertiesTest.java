package io.risklimits.decision;

import static io.risklimits.support.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.hold.HoldLedger;
import io.risklimits.decision.hold.HoldOutcome;
import io.risklimits.decision.hold.HoldPolicy;
import io.risklimits.decision.hold.HoldVerdict;
import io.risklimits.support.Gen;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The conversion into the limit currency over every currency java.util.Currency knows that has a minor
 * unit, both ways, with random rates and amounts: what is counted is never below the exact value and less
 * than one minor unit above it; a release never gives back more than its exact value, except the one that
 * leaves nothing of its original in its own currency, which gives back everything still counted.
 */
class CurrencyConversionPropertiesTest {

    private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");

    record Case(String from, String to, BigDecimal rate, long amount) {}

    /** A case and the weights its amount is cut in parts by. */
    private record CaseAndWeights(Case example, List<Integer> weights) {}

    /** A case and the follow-ups of its hold. */
    private record CaseAndSteps(Case example, List<Step> steps) {}

    @Test
    void theCountedAmountIsTheExactProductRoundedUpToTheLimitCurrencysMinorUnit() {
        forAll(3000, cases(), example -> {
            FxPolicy policy = new FxPolicy(
                    example.to(), Duration.ofHours(48), (currency, at) -> new FxRate(currency, example.rate(), NOW));

            FxPolicy.Counted counted = policy.count(example.amount(), example.from(), NOW);

            BigDecimal exact = BigDecimal.valueOf(example.amount())
                    .movePointLeft(digits(example.from()))
                    .multiply(example.rate())
                    .movePointRight(digits(example.to()));
            assertThat(counted.refused()).isNull();
            assertThat(BigDecimal.valueOf(counted.amount())).isGreaterThanOrEqualTo(exact);
            assertThat(BigDecimal.valueOf(counted.amount())).isLessThan(exact.add(BigDecimal.ONE));
            assertThat(counted.conversion().countedAmount()).isEqualTo(counted.amount());
        });
    }

    @Test
    void aReleaseConvertsRoundedDownAndNeverMoreThanIsStillCounted() {
        forAll(1000, cases(), example -> {
            FxPolicy policy = FxPolicy.only(example.to());
            Conversion original = new Conversion(0, example.to(), example.rate(), NOW);
            long counted = Currencies.convert(
                    example.amount(), example.from(), example.rate(), example.to(), RoundingMode.CEILING);
            FxPolicy.Remaining left = new FxPolicy.Remaining(counted, 0, example.amount(), 0);

            long wholeRelease =
                    policy.followUpAmount(EventType.REVERSAL, example.amount(), example.from(), original, left);
            long halfRelease =
                    policy.followUpAmount(EventType.REVERSAL, example.amount() / 2, example.from(), original, left);

            BigDecimal halfExact = Currencies.exact(example.amount() / 2, example.from(), example.rate(), example.to());
            assertThat(wholeRelease).isEqualTo(counted);
            // a release short of what is left in its own currency rounds down
            assertThat(BigDecimal.valueOf(halfRelease)).isLessThanOrEqualTo(halfExact);
            assertThat(BigDecimal.valueOf(halfRelease)).isGreaterThan(halfExact.subtract(BigDecimal.ONE));
        });
    }

    @Test
    void
            partialReversalsSummingToTheOriginalInItsOwnCurrencyLeaveNothingCountedAndNoneGivesBackMoreThanItsExactAmount() {
        forAll(1000, casesAndWeights(), sample -> {
            Case example = sample.example();
            List<Integer> weights = sample.weights();
            FxPolicy policy = FxPolicy.only(example.to());
            long counted = Currencies.convert(
                    example.amount(), example.from(), example.rate(), example.to(), RoundingMode.CEILING);
            Conversion original = new Conversion(counted, example.to(), example.rate(), NOW);
            HoldLedger ledger = HoldLedger.finalSpend(counted, NOW).inOwnCurrency(example.amount());

            List<Long> parts = parts(example.amount(), weights);
            for (int index = 0; index < parts.size(); index++) {
                long part = parts.get(index);
                long amount = policy.followUpAmount(EventType.REVERSAL, part, example.from(), original, left(ledger));
                HoldOutcome reversal = HoldPolicy.reverse(ledger, amount, part, NOW);
                ledger = (HoldLedger) reversal.after();

                assertThat(reversal.verdict()).isEqualTo(HoldVerdict.RELEASED);
                if (index < parts.size() - 1) {
                    BigDecimal exact = Currencies.exact(part, example.from(), example.rate(), example.to());
                    assertThat(BigDecimal.valueOf(reversal.released().amount())).isLessThanOrEqualTo(exact);
                    assertThat(ledger.counted())
                            .as("counted while some of the original is left")
                            .isPositive();
                }
            }
            assertThat(ledger.counted()).isZero();
            assertThat(ledger.ownCounted()).isZero();
            assertThat(ledger.countHour()).isNull();
        });
    }

    @Test
    void whatIsCountedInTheLimitCurrencyNeverFallsBelowTheExactValueOfWhatIsLeftInItsOwn() {
        forAll(1000, casesAndSteps(), sample -> {
            Case example = sample.example();
            FxPolicy policy = FxPolicy.only(example.to());
            long counted = Currencies.convert(
                    example.amount(), example.from(), example.rate(), example.to(), RoundingMode.CEILING);
            Conversion original = new Conversion(counted, example.to(), example.rate(), NOW);
            Instant expiresAt = NOW.plus(Duration.ofDays(7));
            HoldLedger ledger = HoldLedger.hold(counted, NOW, expiresAt).inOwnCurrency(example.amount());

            for (Step step : sample.steps()) {
                // a share of what is left in its own currency, of what is held, or of the original's amount
                long own = Math.max(
                        1,
                        switch (step.kind()) {
                            case REVERSAL -> ledger.ownCounted() * step.share() / 100;
                            case CAPTURE -> ledger.ownHeld() * step.share() / 100;
                            case INCREMENT, EXPIRY -> example.amount() * step.share() / 100;
                        });
                if (step.kind() == StepKind.EXPIRY) {
                    ledger = HoldPolicy.expire(ledger, expiresAt)
                            .map(expiry -> (HoldLedger) expiry.after())
                            .orElse(ledger);
                } else {
                    EventType type = EventType.valueOf(step.kind().name());
                    long amount = policy.followUpAmount(type, own, example.from(), original, left(ledger));
                    HoldOutcome outcome = switch (step.kind()) {
                        case REVERSAL -> HoldPolicy.reverse(ledger, amount, own, NOW);
                        case CAPTURE -> HoldPolicy.capture(ledger, amount, own, step.share() % 2 == 0, NOW);
                        default -> HoldPolicy.increment(ledger, amount, own, NOW, null, null);
                    };
                    ledger = (HoldLedger) outcome.after();
                }

                BigDecimal exactLeft =
                        Currencies.exact(ledger.ownCounted(), example.from(), example.rate(), example.to());
                assertThat(BigDecimal.valueOf(ledger.counted())).isGreaterThanOrEqualTo(exactLeft);
                assertThat(ledger.counted() > 0).isEqualTo(ledger.ownCounted() > 0);
            }
        });
    }

    enum StepKind {
        REVERSAL,
        CAPTURE,
        INCREMENT,
        EXPIRY
    }

    /** A follow-up of a hold, its own amount a share (percent) of what it is judged against. */
    record Step(StepKind kind, int share) {}

    private static Gen<Step> steps() {
        Gen<StepKind> kinds = Gen.of(StepKind.values());
        Gen<Integer> shares = Gen.ints(1, 150);
        return random -> new Step(kinds.next(random), shares.next(random));
    }

    // the amount cut in parts as the weights say, the last part what the others leave, none of them 0
    private static List<Long> parts(long amount, List<Integer> weights) {
        long total = weights.stream().mapToLong(Integer::longValue).sum();
        List<Long> parts = new ArrayList<>();
        long taken = 0;
        for (int index = 0; index < weights.size() - 1; index++) {
            long part = amount * weights.get(index) / total;
            if (part > 0 && taken + part < amount) {
                parts.add(part);
                taken += part;
            }
        }
        parts.add(amount - taken);
        return parts;
    }

    private static FxPolicy.Remaining left(HoldLedger ledger) {
        return new FxPolicy.Remaining(ledger.counted(), ledger.held(), ledger.ownCounted(), ledger.ownHeld());
    }

    // every currency with a minor unit, both ways; rates and amounts of every order of magnitude
    private static Gen<Case> cases() {
        List<String> codes = Currency.getAvailableCurrencies().stream()
                .filter(currency -> currency.getDefaultFractionDigits() >= 0)
                .map(Currency::getCurrencyCode)
                .sorted()
                .toList();
        Gen<String> currencies = Gen.of(codes);
        Gen<Long> unscaledRates = Gen.magnitudes(1, 10_000_000_000L);
        Gen<Integer> scales = Gen.ints(0, 12);
        Gen<BigDecimal> rates = random -> BigDecimal.valueOf(unscaledRates.next(random), scales.next(random));
        Gen<Long> amounts = Gen.magnitudes(1, 1_000_000_000L);
        Gen<Case> cases = random ->
                new Case(currencies.next(random), currencies.next(random), rates.next(random), amounts.next(random));
        return cases.filter(example -> !example.from().equals(example.to()))
                // amounts the limit currency can count (a long of its minor units), with room for a hold's
                // steps: twelve increments and over-captures of up to 150 % each stay below 64 times it
                .filter(example -> Currencies.exact(example.amount(), example.from(), example.rate(), example.to())
                                .compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 64))
                        < 0);
    }

    private static Gen<CaseAndWeights> casesAndWeights() {
        Gen<Case> cases = cases();
        Gen<List<Integer>> weights = Gen.ints(1, 1_000).list(1, 8);
        return random -> new CaseAndWeights(cases.next(random), weights.next(random));
    }

    private static Gen<CaseAndSteps> casesAndSteps() {
        Gen<Case> cases = cases();
        Gen<List<Step>> steps = steps().list(0, 12);
        return random -> new CaseAndSteps(cases.next(random), steps.next(random));
    }

    private static int digits(String code) {
        return Currency.getInstance(code).getDefaultFractionDigits();
    }
}
