package io.risklimits.bench;

/**
 * What one mode did in one scenario.
 *
 * @param historyRowsPerKey hourly buckets each key had before the run
 */
record RunResult(
        String scenario,
        String mode,
        int keys,
        int historyRowsPerKey,
        double hotKeyShare,
        Throughput throughput,
        Latency latency) {

    /**
     * Events produced before the service started, decided as fast as it can.
     *
     * @param decisionsPerSecond decisions appended per second, first decision to last (start-up excluded)
     * @param firstToLastMillis append time of the last decision minus that of the first
     * @param withStartupDecisionsPerSecond the same from the moment the service was asked to start
     * @param approvedShare share of the decisions that were approvals
     */
    record Throughput(
            int decisions,
            double decisionsPerSecond,
            long firstToLastMillis,
            double withStartupDecisionsPerSecond,
            double approvedShare) {}

    /**
     * Events produced at a fixed rate; latency = decision appended - event scheduled.
     *
     * @param targetEventsPerSecond the fixed rate: a share (default half) of this run's throughput
     */
    record Latency(
            double targetEventsPerSecond,
            int events,
            long p50Millis,
            long p99Millis,
            long p999Millis,
            long maxMillis,
            double approvedShare) {}
}
