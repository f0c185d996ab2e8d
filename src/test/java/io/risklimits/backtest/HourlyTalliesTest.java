package io.risklimits.backtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.Tally;
import java.util.Random;
import org.junit.jupiter.api.Test;

class HourlyTalliesTest {

    @Test
    void sumsFromAnyHourEqualTheNaiveSums() {
        Random random = new Random(7);
        long first = 490_000;
        int hours = 800;
        HourlyTallies tallies = new HourlyTallies(first, first + hours - 1);
        long[] amounts = new long[hours];
        long[] counts = new long[hours];
        for (int step = 0; step < 5_000; step++) {
            int offset = random.nextInt(hours);
            long amount = random.nextInt(1_000) - 300;
            long count = random.nextInt(3) - 1;
            tallies.add(first + offset, amount, count);
            amounts[offset] += amount;
            counts[offset] += count;
            long start = first - 5 + random.nextInt(hours + 10);
            assertThat(tallies.sumFrom(start)).isEqualTo(naive(amounts, counts, start - first));
        }
    }

    private static Tally naive(long[] amounts, long[] counts, long fromOffset) {
        long amount = 0;
        long count = 0;
        for (int offset = (int) Math.max(0, fromOffset); offset < amounts.length; offset++) {
            amount += amounts[offset];
            count += counts[offset];
        }
        return new Tally(amount, count);
    }
}
