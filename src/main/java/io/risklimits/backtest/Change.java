package io.risklimits.backtest;

/** How many decisions changed one way, and the sum of their amounts (minor units). */
public record Change(long count, long amount) {

    public static final Change NONE = new Change(0, 0);

    Change plusOne(long eventAmount) {
        return new Change(count + 1, amount + eventAmount);
    }

    Change plus(Change other) {
        return new Change(count + other.count, amount + other.amount);
    }
}
