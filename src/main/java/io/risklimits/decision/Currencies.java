package io.risklimits.decision;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Currency;

/**
 * ISO 4217 currencies and the conversion of amounts between their minor units, in exact decimal
 * arithmetic.
 */
public final class Currencies {

    private Currencies() {}

    /**
     * The number of decimals of the currency's minor unit (JPY 0, USD 2, KWD 3, CLF 4); -1 for a code
     * that is not an ISO 4217 currency, or one without a minor unit (XXX, XAU).
     */
    public static int minorUnitDigits(String code) {
        try {
            return Currency.getInstance(code).getDefaultFractionDigits();
        } catch (IllegalArgumentException | NullPointerException unknown) {
            return -1;
        }
    }

    /**
     * The amount, in the minor units of from, worth rate units of to per unit of from, in the minor units of
     * to, rounded as asked: up to count anew (never under-counted), down to release.
     *
     * @throws ArithmeticException when the result does not fit a long
     */
    public static long convert(long amount, String from, BigDecimal rate, String to, RoundingMode rounding) {
        return exact(amount, from, rate, to).setScale(0, rounding).longValueExact();
    }

    /** The amount, in the minor units of from, in the minor units of to, exactly (a fraction of one, maybe). */
    public static BigDecimal exact(long amount, String from, BigDecimal rate, String to) {
        return BigDecimal.valueOf(amount).multiply(rate).scaleByPowerOfTen(minorUnitDigits(to) - minorUnitDigits(from));
    }
}
