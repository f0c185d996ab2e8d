package io.risklimits.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * What one benchmark run does, from -Dbench.* system properties (Maven passes -D options on to the
 * forked test JVM). The defaults keep a run with both modes to 30-40 minutes on two cores.
 *
 * @param events events per throughput measurement
 * @param throughputRepeats throughput measurements per mode and scenario, the same stream each time
 *     after the same reset; the median is the result (on two cores one measurement can differ from
 *     the next by a fifth or more)
 * @param keys business keys per key set; the hot-key scenario puts half its events on one of them
 * @param oldDecisionsPerKey decisions past retention written and deleted per key before the runs, so
 *     that the request log has the free space of a log at its steady size (0: a young log, which grows);
 *     a full run writes 3-4 million decisions, and 300 per key (two key sets of 10,000) free room for 6 million
 * @param modes the deciders to compare, the baseline first: per-event (the seed's design) and batched
 * @param scenarios names of the scenarios to run, see {@link Scenario}
 * @param concurrency risk.decider.concurrency of the service under test
 * @param partitions partitions of the transactions and decisions topics
 * @param latencyLoadShare the latency phase produces at this share of the throughput just measured
 * @param latencyRate a fixed rate (events/s) for the latency phase instead, if set: comparing two
 *     versions at one rate, whatever their throughput on the day
 * @param latencyDuration how long the latency phase produces: a minute, because a p99 over 15 s is
 *     decided by any one stall of 150 ms (1 % of the stretch), which says little about the p99 a
 *     running service has
 * @param latencySettleDuration how long the latency phase's rate runs before it is measured (0: not at all)
 * @param warmUpLimit longest warm-up per mode, if the JIT compiler has not settled before
 * @param synchronousCommit PostgreSQL's synchronous_commit for every session (the embedded server turns it off)
 * @param phaseTimeout longest wait for the decisions of one phase
 * @param seed seed of the fixed event stream, the same for every mode
 * @param resultsFile where the JSON results go
 * @param chartFile where the SVG chart goes
 */
record BenchmarkOptions(
        int events,
        int throughputRepeats,
        int keys,
        int oldDecisionsPerKey,
        List<String> modes,
        List<String> scenarios,
        int concurrency,
        int partitions,
        double latencyLoadShare,
        Optional<Double> latencyRate,
        Duration latencyDuration,
        Duration latencySettleDuration,
        Duration warmUpLimit,
        String synchronousCommit,
        Duration phaseTimeout,
        long seed,
        Path resultsFile,
        Path chartFile) {

    static BenchmarkOptions fromSystemProperties() {
        return new BenchmarkOptions(
                Integer.getInteger("bench.events", 60_000),
                Math.max(1, Integer.getInteger("bench.throughput-repeats", 3)),
                Integer.getInteger("bench.keys", 10_000),
                Integer.getInteger("bench.old-decisions-per-key", 300),
                list(System.getProperty("bench.modes", "per-event,batched")),
                list(System.getProperty("bench.scenarios", String.join(",", Scenario.NAMES))),
                Integer.getInteger("bench.concurrency", 2),
                Integer.getInteger("bench.partitions", 12),
                Double.parseDouble(System.getProperty("bench.latency-load-share", "0.5")),
                Optional.ofNullable(System.getProperty("bench.latency-rate")).map(Double::parseDouble),
                Duration.ofSeconds(Long.getLong("bench.latency-seconds", 60)),
                Duration.ofSeconds(Long.getLong("bench.latency-settle-seconds", 15)),
                Duration.ofSeconds(Long.getLong("bench.warm-up-seconds", 90)),
                System.getProperty("bench.synchronous-commit", "on"),
                Duration.ofMinutes(Long.getLong("bench.timeout-minutes", 10)),
                Long.getLong("bench.seed", 20261123L),
                Path.of(System.getProperty("bench.results", "target/benchmark/results.json")),
                Path.of(System.getProperty("bench.chart", "docs/benchmark.svg")));
    }

    private static List<String> list(String commaSeparated) {
        return Arrays.stream(commaSeparated.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }
}
