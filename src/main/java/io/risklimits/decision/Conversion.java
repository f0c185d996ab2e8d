package io.risklimits.decision;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * How an amount in a currency other than the limit currency was counted: the amount in the limit
 * currency's minor units, and the rate it was converted at (the decision's fx field).
 *
 * @param currency the limit currency
 * @param validFrom when the rate became valid
 */
public record Conversion(long countedAmount, String currency, BigDecimal rate, Instant validFrom) {

    /** Another amount of the same currency at the same rate. */
    public Conversion counting(long amount) {
        return new Conversion(amount, currency, rate, validFrom);
    }
}
