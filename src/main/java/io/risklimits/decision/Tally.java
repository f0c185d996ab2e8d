package io.risklimits.decision;

/** An amount in minor units and a count of transactions. */
public record Tally(long amount, long count) {

    public static final Tally ZERO = new Tally(0, 0);

    public Tally plus(long amount) {
        return new Tally(this.amount + amount, count + 1);
    }

    /** What is left after taking other away, never below zero. */
    public Tally minus(Tally other) {
        return new Tally(Math.max(0, amount - other.amount), Math.max(0, count - other.count));
    }

    public Tally plus(Tally other) {
        return new Tally(amount + other.amount, count + other.count);
    }
}
