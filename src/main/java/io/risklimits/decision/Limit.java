package io.risklimits.decision;

/** The maximum amount and count of one window; null means the window has no limit row. */
public record Limit(Long maxAmount, Long maxCount) {

    public static final Limit UNLIMITED = new Limit(null, null);

    /**
     * Whether usedAmount + amount stays within the maximum (a window without one: within the long
     * range), compared exactly for any two longs. A usage of Long.MAX_VALUE, which stands for that much
     * or more ({@link Tally}), admits no positive amount, limited or not.
     */
    public boolean admitsAmount(long usedAmount, long amount) {
        long maximum = maxAmount == null ? Long.MAX_VALUE : maxAmount;
        try {
            return Math.addExact(usedAmount, amount) <= maximum;
        } catch (ArithmeticException outsideTheLongRange) {
            // the exact sum is above every long when both are positive, below every long when both are negative
            return usedAmount < 0;
        }
    }

    public boolean admitsOneMore(long usedCount) {
        long maximum = maxCount == null ? Integer.MAX_VALUE : maxCount;
        return usedCount < maximum;
    }
}
