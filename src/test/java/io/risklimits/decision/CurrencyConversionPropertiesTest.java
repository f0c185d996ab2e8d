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
import java.util.stream.LongStream;
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
        int tries = 3000;
        forAll(tries, withEdgeSamples(tries, CASE_EDGE_SAMPLES, cases(false), cases(true)), example -> {
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
        int tries = 1000;
        forAll(tries, withEdgeSamples(tries, CASE_EDGE_SAMPLES, cases(false), cases(true)), example -> {
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
        int tries = 1000;
        // the weights' edge-case samples: a one-element list of 1, 2, 999 or 1000
        int edgeSamples = CASE_EDGE_SAMPLES * 4;
        forAll(tries, withEdgeSamples(tries, edgeSamples, casesAndWeights(false), casesAndWeights(true)), sample -> {
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
        int tries = 1000;
        // the steps' edge-case samples: the empty list and one-element lists of an edge-case step, counted as 7
        // (a second parameter's edge cases were capped at tries / CASE_EDGE_SAMPLES, rounded up)
        int edgeSamples = CASE_EDGE_SAMPLES * 7;
        forAll(tries, withEdgeSamples(tries, edgeSamples, casesAndSteps(false), casesAndSteps(true)), sample -> {
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

    private static Gen<Step> steps(boolean edgeCasesOnly) {
        Gen<StepKind> kinds = choose(List.of(StepKind.values()), edgeCasesOnly);
        Gen<Integer> shares = ints(1, 150, edgeCasesOnly);
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

    /**
     * How many cases are made of edge cases only: the first and the last currency code (ADP and ZWR, with 0
     * and 2 minor-unit digits, on Java 17), one way and the other, times 20 rates (unscaled 1, 2,
     * 9 999 999 999 or 10 000 000 000 at a scale of 0, 1, 2, 11 or 12) times 4 amounts (1, 2, 999 999 999
     * or 1 000 000 000): 148 of the 160 pass the cases' filters.
     */
    private static final int CASE_EDGE_SAMPLES = 148;

    private static Gen<Case> cases(boolean edgeCasesOnly) {
        List<String> codes = Currency.getAvailableCurrencies().stream()
                .filter(currency -> currency.getDefaultFractionDigits() >= 0)
                .map(Currency::getCurrencyCode)
                .sorted()
                .toList();
        Gen<String> currencies = choose(codes, edgeCasesOnly);
        Gen<Long> unscaledRates = longs(1, 10_000_000_000L, edgeCasesOnly);
        Gen<Integer> scales = ints(0, 12, edgeCasesOnly);
        Gen<BigDecimal> rates = random -> BigDecimal.valueOf(unscaledRates.next(random), scales.next(random));
        Gen<Long> amounts = longs(1, 1_000_000_000L, edgeCasesOnly);
        Gen<Case> cases = random ->
                new Case(currencies.next(random), currencies.next(random), rates.next(random), amounts.next(random));
        return cases.filter(example -> !example.from().equals(example.to()))
                // amounts the limit currency can count (a long of its minor units), with room for a hold's
                // steps: twelve increments and over-captures of up to 150 % each stay below 64 times it
                .filter(example -> Currencies.exact(example.amount(), example.from(), example.rate(), example.to())
                                .compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 64))
                        < 0);
    }

    private static Gen<CaseAndWeights> casesAndWeights(boolean edgeCasesOnly) {
        Gen<Case> cases = cases(edgeCasesOnly);
        Gen<Integer> weight = ints(1, 1_000, edgeCasesOnly);
        Gen<List<Integer>> weights = edgeCasesOnly ? weight.map(List::of) : lists(weight, 1, 8);
        return random -> new CaseAndWeights(cases.next(random), weights.next(random));
    }

    private static Gen<CaseAndSteps> casesAndSteps(boolean edgeCasesOnly) {
        Gen<Case> cases = cases(edgeCasesOnly);
        Gen<Step> step = steps(edgeCasesOnly);
        // as edge cases: the empty list, or a one-element list of one of the 8 edge-case steps
        Gen<List<Step>> steps = edgeCasesOnly
                ? random -> random.nextInt(9) == 0 ? List.of() : List.of(step.next(random))
                : lists(step, 0, 12);
        return random -> new CaseAndSteps(cases.next(random), steps.next(random));
    }

    private static int digits(String code) {
        return Currency.getInstance(code).getDefaultFractionDigits();
    }

    // The samples are drawn as the property-testing library these properties were first written with drew
    // them: a range's values biased towards its lower bound, a range's or a choice's edge cases one draw in
    // VALUE_EDGE_ONE_IN, and now and then a whole sample made of edge cases only.

    /** How often a value is one of its edge cases instead (that library's ratio at a thousand tries or more). */
    private static final int VALUE_EDGE_ONE_IN = 20;

    /** The widest part of a range that is drawn from uniformly, not cut in smaller parts. */
    private static final long UNCUT = 20;

    /**
     * The drawn samples, and one try in min(max(tries / edgeSamples, 5), 20) + 1 a sample made of edge
     * cases only, edgeSamples how many such samples there are.
     */
    private static <T> Gen<T> withEdgeSamples(int tries, int edgeSamples, Gen<T> drawn, Gen<T> edgeCases) {
        int oneIn = Math.min(Math.max(tries / edgeSamples, 5), 20) + 1;
        return random -> random.nextInt(oneIn) == 0 ? edgeCases.next(random) : drawn.next(random);
    }

    /**
     * A long between the bounds (inclusive, the lower one 0 or above): the range cut in parts that shrink
     * towards the lower bound, each part as likely and a value uniform in it, so that each order of
     * magnitude is drawn about as often as another; one draw in {@link #VALUE_EDGE_ONE_IN} an edge case
     * (the bounds, the values next to them, 0, 1 and 2 where in the range), or only edge cases.
     */
    private static Gen<Long> longs(long min, long max, boolean edgeCasesOnly) {
        if (min < 0 || min >= max) {
            throw new IllegalArgumentException(min + " .. " + max);
        }
        Gen<Long> edgeCases = Gen.of(LongStream.of(min, min + 1, max - 1, max, 0, 1, 2)
                .filter(value -> value >= min && value <= max)
                .distinct()
                .boxed()
                .toList());
        if (edgeCasesOnly) {
            return edgeCases;
        }
        List<long[]> parts = rangeParts(min, max);
        Gen<Long> values = random -> {
            long[] part = parts.get(random.nextInt(parts.size()));
            return random.nextLong(part[0], part[1] + 1);
        };
        return random -> random.nextInt(VALUE_EDGE_ONE_IN) == 0 ? edgeCases.next(random) : values.next(random);
    }

    private static Gen<Integer> ints(int min, int max, boolean edgeCasesOnly) {
        return longs(min, max, edgeCasesOnly).map(Long::intValue);
    }

    /**
     * The range's parts, lowest first: from the upper bound down, a cut a fraction of the way from the lower
     * bound to the last cut, a smaller fraction the wider the range, until what is left is {@link #UNCUT}
     * values wide or less.
     */
    private static List<long[]> rangeParts(long min, long max) {
        List<Long> cuts = new ArrayList<>();
        for (long cut = max; cut - min > UNCUT; ) {
            long width = cut - min;
            int decimals = (Long.SIZE - Long.numberOfLeadingZeros(width)) / 10 * 3;
            long ratio = Math.max((long) Math.pow(decimals / 5.0, 10), 3);
            if (width / ratio == 0) {
                break;
            }
            cut = min + width / ratio;
            cuts.add(0, cut);
        }
        List<long[]> parts = new ArrayList<>();
        long lower = min;
        for (long cut : cuts) {
            if (cut > lower && cut < max) {
                parts.add(new long[] {lower, cut - 1});
                lower = cut;
            }
        }
        parts.add(new long[] {lower, max});
        return List.copyOf(parts);
    }

    /** One of the values, each as likely; one draw in {@link #VALUE_EDGE_ONE_IN} the first or the last one. */
    private static <T> Gen<T> choose(List<T> values, boolean edgeCasesOnly) {
        Gen<T> edgeCases = Gen.of(List.of(values.get(0), values.get(values.size() - 1)));
        if (edgeCasesOnly) {
            return edgeCases;
        }
        Gen<T> any = Gen.of(values);
        return random -> random.nextInt(VALUE_EDGE_ONE_IN) == 0 ? edgeCases.next(random) : any.next(random);
    }

    /** Lists of the elements, each size between the bounds (inclusive) as likely. */
    private static <T> Gen<List<T>> lists(Gen<T> elements, int minSize, int maxSize) {
        return random -> {
            int size = random.nextInt(minSize, maxSize + 1);
            List<T> list = new ArrayList<>(size);
            for (int index = 0; index < size; index++) {
                list.add(elements.next(random));
            }
            return list;
        };
    }
}
