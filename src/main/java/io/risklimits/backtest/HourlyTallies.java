package io.risklimits.backtest;

import io.risklimits.decision.Tally;

/**
 * The approved amount and count of one key per hour bucket, over a fixed range of hours, answering
 * "everything from this hour on" in logarithmic time whatever the window's length (a Fenwick tree of
 * the amounts and counts per hour). Hours before the range hold nothing; a window starting before it
 * sums the whole range.
 */
final class HourlyTallies {

    private final long firstHour;
    private final long[] amounts;
    private final long[] counts;
    private long totalAmount;
    private long totalCount;

    HourlyTallies(long firstHour, long lastHour) {
        this.firstHour = firstHour;
        int size = Math.toIntExact(lastHour - firstHour + 1);
        this.amounts = new long[size + 1];
        this.counts = new long[size + 1];
    }

    /** Adds to the bucket of the hour (negative to release), which must lie in the range. */
    void add(long hour, long amount, long count) {
        totalAmount += amount;
        totalCount += count;
        for (int index = indexOf(hour) + 1; index < amounts.length; index += index & -index) {
            amounts[index] += amount;
            counts[index] += count;
        }
    }

    /** The sum of the buckets from startHour on, through the end of the range. */
    Tally sumFrom(long startHour) {
        if (startHour <= firstHour) {
            return new Tally(totalAmount, totalCount);
        }
        long amountBefore = 0;
        long countBefore = 0;
        int before = (int) Math.min(startHour - firstHour, amounts.length - 1L);
        for (int index = before; index > 0; index -= index & -index) {
            amountBefore += amounts[index];
            countBefore += counts[index];
        }
        return new Tally(totalAmount - amountBefore, totalCount - countBefore);
    }

    private int indexOf(long hour) {
        if (hour < firstHour || hour - firstHour >= amounts.length - 1L) {
            throw new IllegalArgumentException("hour " + hour + " is outside the key's range");
        }
        return (int) (hour - firstHour);
    }
}
