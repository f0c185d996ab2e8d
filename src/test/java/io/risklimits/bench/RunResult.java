package io.risklimits.bench;

import java.util.List;

/**
 * What one mode did in one scenario.
 *
 * @param historyRowsPerKey hourly buckets each key had before the run
 * @param settlingLatency the same rate just before the latency phase, not the result (null if not run)
 * @param ceiling the database's ceiling in the same rounds: the production batched statements driven
 *     directly, no Kafka and no JSON (batched mode only; null otherwise)
 * @param rounds the throughput phase of each round, in round order; {@code throughput} is their median
 * @param ceilingRounds the ceiling's phase of each round, in round order (empty where no ceiling ran)
 */
record RunResult(
        String scenario,
        String mode,
        int keys,
        int historyRowsPerKey,
        double hotKeyShare,
        Throughput throughput,
        Latency latency,
        Latency settlingLatency,
        Throughput ceiling,
        List<Throughput> rounds,
        List<Throughput> ceilingRounds) {

    /**
     * Events produced while the (warm) service was paused, decided as fast as it can once resumed.
     *
     * @param decisionsPerSecond decisions appended per second, first decision to last
     * @param firstToLastMillis append time of the last decision minus that of the first
     * @param fromResumeDecisionsPerSecond the same from the moment the service was asked to resume
     * @param approvedShare share of the decisions that were approvals
     * @param eventsPerTransaction events the decider took per database transaction (1 for the baseline)
     * @param cpuPerThousandDecisions CPU time of PostgreSQL and of the benchmark's JVM per 1,000 decisions
     *     (null where it cannot be read); of several phases, the median of each
     * @param cost what one decision cost; of several phases, the median of each figure
     */
    record Throughput(
            int decisions,
            double decisionsPerSecond,
            long firstToLastMillis,
            double fromResumeDecisionsPerSecond,
            double approvedShare,
            double eventsPerTransaction,
            ProcessCpu.Cost cpuPerThousandDecisions,
            DecisionCost cost) {

        Throughput withMedians(ProcessCpu.Cost cpu, DecisionCost medianCost) {
            return new Throughput(
                    decisions,
                    decisionsPerSecond,
                    firstToLastMillis,
                    fromResumeDecisionsPerSecond,
                    approvedShare,
                    eventsPerTransaction,
                    cpu,
                    medianCost);
        }

        double seconds() {
            return firstToLastMillis / 1000.0;
        }
    }

    /**
     * Events produced at a fixed rate.
     *
     * @param targetEventsPerSecond the fixed rate: a share (default half) of this run's throughput
     * @param fromEventAppended decision appended - event appended, both broker append times: the
     *     issue's "event appended -> decision appended", what the service adds
     * @param fromEventScheduled decision appended - event scheduled: also the load driver's send, and
     *     any time it fell behind its schedule (the stricter figure)
     * @param eventsPerTransaction events per database transaction of the decider in the phase: a live
     *     stream's polls are smaller than a backlog's
     * @param cost what a decision cost at this rate, polls and batches as a live stream makes them
     */
    record Latency(
            double targetEventsPerSecond,
            int events,
            Percentiles fromEventAppended,
            Percentiles fromEventScheduled,
            double approvedShare,
            double eventsPerTransaction,
            DecisionCost cost) {

        long p50Millis() {
            return fromEventAppended.p50Millis();
        }

        long p99Millis() {
            return fromEventAppended.p99Millis();
        }

        long p999Millis() {
            return fromEventAppended.p999Millis();
        }
    }

    record Percentiles(long p50Millis, long p99Millis, long p999Millis, long maxMillis) {

        static Percentiles of(long[] millis) {
            Latencies latencies = new Latencies(millis);
            return new Percentiles(
                    latencies.percentileMillis(0.50),
                    latencies.percentileMillis(0.99),
                    latencies.percentileMillis(0.999),
                    latencies.maxMillis());
        }
    }
}
