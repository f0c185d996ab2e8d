package io.risklimits.bench;

import java.util.Arrays;

/** Exact percentiles of a phase's latencies (a run holds tens of thousands: sorting them is cheap). */
final class Latencies {

    private final long[] sortedMillis;

    Latencies(long[] millis) {
        this.sortedMillis = millis.clone();
        Arrays.sort(sortedMillis);
    }

    /** Nearest rank: the smallest latency that at least this fraction of events did not exceed. */
    long percentileMillis(double fraction) {
        if (sortedMillis.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(fraction * sortedMillis.length);
        return sortedMillis[Math.max(0, Math.min(sortedMillis.length - 1, rank - 1))];
    }

    long maxMillis() {
        return sortedMillis.length == 0 ? 0 : sortedMillis[sortedMillis.length - 1];
    }
}
