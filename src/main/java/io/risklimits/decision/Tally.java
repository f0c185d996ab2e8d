package io.risklimits.decision;

/**
 * An amount in minor units and a count of transactions. An amount of Long.MAX_VALUE stands for that
 * much or more: sums stop there instead of overflowing, and it stays there whatever is taken away, since
 * what it stands for is not known; no window with that usage admits more ({@link Limit}).
 */
public record Tally(long amount, long count) {

    public static final Tally ZERO = new Tally(0, 0);

    public Tally plus(long amount) {
        return new Tally(saturatedSum(this.amount, amount), count + 1);
    }

    /** What is left after taking other away, never below zero. */
    public Tally minus(Tally other) {
        long left = amount == Long.MAX_VALUE ? amount : Math.max(0, amount - other.amount);
        return new Tally(left, Math.max(0, count - other.count));
    }

    public Tally plus(Tally other) {
        return new Tally(saturatedSum(amount, other.amount), count + other.count);
    }

    private static long saturatedSum(long amount, long added) {
        try {
            return Math.addExact(amount, added);
        } catch (ArithmeticException outsideTheLongRange) {
            return amount < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }
}
