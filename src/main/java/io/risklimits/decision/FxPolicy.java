package io.risklimits.decision;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;

/**
 * What an amount in another currency counts in the limit currency: converted at decision time with the
 * latest rate valid then, rounded up, or refused (no rate, a rate older than maxAge, an amount too large to
 * count); never counted unconverted.
 *
 * @param limitCurrency risk.currency: the currency of every limit and usage figure
 * @param maxAge risk.fx.max-age: how old the latest rate may be
 */
public record FxPolicy(String limitCurrency, Duration maxAge, FxRates rates) {

    /** The limit currency alone: any other currency has no rate. */
    public static FxPolicy only(String limitCurrency) {
        return new FxPolicy(limitCurrency, Duration.ofHours(48), FxRates.NONE);
    }

    /**
     * How an amount is counted. conversion is null for the limit currency itself (counted as it is), and
     * refused is null unless the amount cannot be counted.
     */
    public record Counted(long amount, Conversion conversion, Reason refused) {

        public boolean isRefused() {
            return refused != null;
        }
    }

    /** The amount, in the currency's minor units, as counted by a decision at that instant. */
    public Counted count(long amount, String currency, Instant decidedAt) {
        if (currency.equals(limitCurrency)) {
            return new Counted(amount, null, null);
        }
        FxRate rate = rates.latestAt(currency, decidedAt);
        if (rate == null) {
            return new Counted(0, null, Reason.NO_FX_RATE);
        }
        if (Duration.between(rate.validFrom(), decidedAt).compareTo(maxAge) > 0) {
            return new Counted(0, null, Reason.FX_RATE_STALE);
        }
        long counted;
        try {
            counted = Currencies.convert(amount, currency, rate.rate(), limitCurrency, RoundingMode.CEILING);
        } catch (ArithmeticException tooLargeToCount) {
            return new Counted(0, null, Reason.NO_FX_RATE);
        }
        return new Counted(counted, new Conversion(counted, limitCurrency, rate.rate(), rate.validFrom()), null);
    }

    /**
     * What is left of an approved original in another currency, as its follow-up is converted against:
     * in the limit currency, what is still counted (counted) and held (held); in the original's own
     * currency, the same (ownCounted, ownHeld).
     */
    public record Remaining(long counted, long held, long ownCounted, long ownHeld) {}

    /**
     * A follow-up's amount (in its original's currency, which is not the limit currency) as counted at the
     * rate its original was counted at, judged against what is left of the original in its own currency:
     *
     * <ul>
     *   <li>a reversal of more than is still counted in that currency is answered with its exact converted
     *       amount rounded up (the hold policy refuses it EXCEEDS_REMAINING); the one that leaves nothing
     *       of the original gives back everything still counted; any other converts rounded down, never
     *       more than is still counted;
     *   <li>a capture of less than is held in that currency takes from what is held up to its exact
     *       converted amount rounded up, at most what is held; one of exactly what is held takes all that
     *       is held; one beyond it takes all that is held, and what is beyond, in its own currency, is
     *       counted anew, rounded up;
     *   <li>an increment is counted anew, rounded up.
     * </ul>
     */
    public long followUpAmount(EventType type, long amount, String currency, Conversion original, Remaining left) {
        BigDecimal exact = Currencies.exact(amount, currency, original.rate(), limitCurrency);
        long up = exact.setScale(0, RoundingMode.CEILING).longValueExact();
        return switch (type) {
            case REVERSAL -> {
                if (amount > left.ownCounted()) {
                    yield up;
                }
                yield amount == left.ownCounted()
                        ? left.counted()
                        : Math.min(exact.setScale(0, RoundingMode.FLOOR).longValueExact(), left.counted());
            }
            case CAPTURE -> {
                if (amount < left.ownHeld()) {
                    yield Math.min(up, left.held());
                }
                if (amount == left.ownHeld()) {
                    yield left.held();
                }
                long beyond = Currencies.convert(
                        amount - left.ownHeld(), currency, original.rate(), limitCurrency, RoundingMode.CEILING);
                yield Math.addExact(left.held(), beyond);
            }
            default -> up;
        };
    }

    /**
     * A follow-up's amount as counted at the rate its original was counted at, judged in the limit
     * currency: for an original whose ledger was filed without own-currency figures. A release converts
     * rounded down, never more than is still counted (counted): the reversal whose exact converted amount
     * reaches what is still counted up to rounding gives back all of it, and one whose exact converted
     * amount is beyond it is answered with that amount rounded up, more than is still counted, which the
     * hold policy refuses as EXCEEDS_REMAINING. A capture takes from what is held (held) up to the exact
     * converted amount, and what is beyond is counted anew, rounded up, as is an increment.
     */
    public long followUpAmountInLimitCurrency(
            EventType type, long amount, String currency, Conversion original, long counted, long held) {
        BigDecimal exact = Currencies.exact(amount, currency, original.rate(), limitCurrency);
        long up = exact.setScale(0, RoundingMode.CEILING).longValueExact();
        return switch (type) {
            case REVERSAL -> {
                if (exact.compareTo(BigDecimal.valueOf(counted)) > 0) {
                    yield up;
                }
                yield up >= counted
                        ? counted
                        : exact.setScale(0, RoundingMode.FLOOR).longValueExact();
            }
            case CAPTURE -> exact.compareTo(BigDecimal.valueOf(held)) <= 0 ? Math.min(up, held) : up;
            default -> up;
        };
    }
}
