package io.risklimits.decision;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.Currency;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The conversion into the limit currency over every currency java.util.Currency knows that has a minor
 * unit, both ways, with random rates and amounts: what is counted is never below the exact value and less
 * than one minor unit above it.
 */
class CurrencyConversionPropertiesTest {

    private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");

    record Case(String from, String to, BigDecimal rate, long amount) {}

    @Property(tries = 3000)
    void theCountedAmountIsTheExactProductRoundedUpToTheLimitCurrencysMinorUnit(@ForAll("cases") Case example) {
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
    }

    @Property(tries = 1000)
    void aReleaseConvertsRoundedDownAndNeverMoreThanIsStillCounted(@ForAll("cases") Case example) {
        FxPolicy policy = FxPolicy.only(example.to());
        Conversion original = new Conversion(0, example.to(), example.rate(), NOW);
        long counted = Currencies.convert(
                example.amount(), example.from(), example.rate(), example.to(), RoundingMode.CEILING);

        long wholeRelease =
                policy.followUpAmount(EventType.REVERSAL, example.amount(), example.from(), original, counted, counted);
        long halfRelease = policy.followUpAmount(
                EventType.REVERSAL, example.amount() / 2, example.from(), original, counted, counted);

        BigDecimal halfExact = Currencies.exact(example.amount() / 2, example.from(), example.rate(), example.to());
        assertThat(wholeRelease).isEqualTo(counted);
        assertThat(halfRelease).isLessThanOrEqualTo(counted);
        if (halfExact.setScale(0, RoundingMode.CEILING).longValueExact() < counted) {
            // a release short of what is still counted rounds down
            assertThat(BigDecimal.valueOf(halfRelease)).isLessThanOrEqualTo(halfExact);
            assertThat(BigDecimal.valueOf(halfRelease)).isGreaterThan(halfExact.subtract(BigDecimal.ONE));
        }
    }

    @Provide
    Arbitrary<Case> cases() {
        List<String> codes = Currency.getAvailableCurrencies().stream()
                .filter(currency -> currency.getDefaultFractionDigits() >= 0)
                .map(Currency::getCurrencyCode)
                .sorted()
                .toList();
        Arbitrary<BigDecimal> rates = Combinators.combine(
                        Arbitraries.longs().between(1, 10_000_000_000L),
                        Arbitraries.integers().between(0, 12))
                .as((unscaled, scale) -> BigDecimal.valueOf(unscaled, scale));
        return Combinators.combine(
                        Arbitraries.of(codes),
                        Arbitraries.of(codes),
                        rates,
                        Arbitraries.longs().between(1, 1_000_000_000L))
                .as(Case::new)
                .filter(example -> !example.from().equals(example.to()))
                // amounts the limit currency can count (a long of its minor units)
                .filter(example -> Currencies.exact(example.amount(), example.from(), example.rate(), example.to())
                                .compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 2))
                        < 0);
    }

    private static int digits(String code) {
        return Currency.getInstance(code).getDefaultFractionDigits();
    }
}
