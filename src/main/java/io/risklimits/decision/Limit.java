package io.risklimits.decision;

/** The maximum amount and count of one window; null means the window has no limit row. */
public record Limit(Long maxAmount, Long maxCount) {

    public static final Limit UNLIMITED = new Limit(null, null);

    public boolean admitsAmount(long usedAmount, long amount) {
        // written as a subtraction so that a sum near Long.MAX_VALUE cannot overflow into approval
        long maximum = maxAmount == null ? Long.MAX_VALUE : maxAmount;
        return amount <= maximum - usedAmount;
    }

    public boolean admitsOneMore(long usedCount) {
        long maximum = maxCount == null ? Integer.MAX_VALUE : maxCount;
        return usedCount < maximum;
    }
}
