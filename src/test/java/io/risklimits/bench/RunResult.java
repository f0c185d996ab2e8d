package io.risklimits.bench;

/**
 * What one mode did in one scenario.
 *
 * @param historyRowsPerKey hourly buckets each key had before the run
 * @param settlingLatency the same rate just before the latency phase, not the result (null if not run)
 */
record RunResult(
        String scenario,
        String mode,
        int keys,
        int historyRowsPerKey,
        double hotKeyShare,
        Throughput throughput,
        Latency latency,
        Latency settlingLatency) {

    /**
     * Events produced while the (warm) service was paused, decided as fast as it can once resumed.
     *
     * @param decisionsPerSecond decisions appended per second, first decision to last
     * @param firstToLastMillis append time of the last decision minus that of the first
     * @param fromResumeDecisionsPerSecond the same from the moment the service was asked to resume
     * @param approvedShare share of the decisions that were approvals
     * @param cpuPerThousandDecisions CPU time of PostgreSQL and of the benchmark's JVM per 1,000 decisions
     *     (null where it cannot be read); of several phases, the median of each
     */
    record Throughput(
            int decisions,
            double decisionsPerSecond,
            long firstToLastMillis,
            double fromResumeDecisionsPerSecond,
            double approvedShare,
            ProcessCpu.Cost cpuPerThousandDecisions) {}

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
