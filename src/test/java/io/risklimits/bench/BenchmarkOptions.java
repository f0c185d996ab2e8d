package io.risklimits.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * What one benchmark run does, from -Dbench.* system properties (Maven passes -D options on to the
 * forked test JVM). Two sets of defaults: the full run, the result of record (about 25 minutes on two
 * cores), and the quick run ({@code -Dbench.quick=true}), fewer keys and less history but phases as
 * long and as many rounds, only the phases its goals read (the baseline, ceiling and latency phases of the
 * other scenarios left out), sized to finish within 12 minutes with the Maven build on an idle machine,
 * to be run for every change. An explicit -Dbench.* option overrides either.
 *
 * @param quick whether the quick run's defaults apply
 * @param events events of the service's first throughput phase, before its rate is known (and of its
 *     warm-up rounds); every later phase is sized from the rates measured (see phaseSeconds)
 * @param baselineEvents the same for the baseline, which decides an order of magnitude fewer per second
 * @param phaseSeconds the least a measured phase lasts (throughput, ceiling, latency): a throughput or
 *     ceiling phase gets the events its rate decides in somewhat longer than this ({@link PhaseSizes});
 *     one that still ends sooner is not counted and runs again, sized from its own rate
 * @param throughputRepeats rounds: throughput measurements per mode and scenario, the same stream each
 *     time after the same reset; the median is the result, and the spread across rounds is reported
 *     beside it (on two cores one measurement can differ from the next by a fifth or more)
 * @param keys business keys per key set; the hot-key scenario puts half its events on one of them
 * @param wideKeys business keys of the wide-keys scenario's key set, more than a decider remembers window
 *     starts of (risk.decider.window-starts-cache-keys, 100,000 by default); quick and full alike
 * @param wideBaseline whether the baseline decides the wide key set too; the quick run leaves it out, since
 *     the wide key set is judged against uniform 30 d, batched end to end, not against its baseline
 * @param explainWideKeys whether the plan of the usage read for a batch of the wide key set's keys is
 *     printed (EXPLAIN (ANALYZE, BUFFERS)), after the throughput rounds
 * @param oldDecisionsPerKey decisions past retention written and deleted per key before the runs, so
 *     that the request log has the free space of a log at its steady size (0: a young log, which grows);
 *     a full run writes 3-4 million decisions, and 300 per key (two key sets of 10,000) free room for 6 million
 * @param modes the deciders to compare, the baseline first: per-event (one transaction per event) and batched
 * @param scenarios names of the scenarios to run, see {@link Scenario}
 * @param baselineScenarios the scenarios the baseline (the first mode) runs, of those it can run (see
 *     {@link #measures}); the quick run: uniform 30 d, whose batched / baseline ratio it reports (the
 *     reversal mix's is the full run's: its phases would take the quick run past 12 minutes)
 * @param ceilingScenarios the scenarios whose database ceiling runs beside the batched service's
 *     throughput phases; the quick run: uniform 30 d and the reversal and holds mixes, the ratios to the
 *     ceiling it judges. Without its ceiling a scenario has no ratio to it (null in summary.json)
 * @param latencyScenarios the scenarios whose latency phase (and settling stretch) runs, in every mode
 *     measured; the quick run: uniform 30 d and all-scopes. Without it a scenario's latency figures are null
 * @param concurrency risk.decider.concurrency of the service under test
 * @param partitions partitions of the transactions and decisions topics
 * @param latencyLoadShare the latency phase produces at this share of the throughput just measured
 * @param latencyRate a fixed rate (events/s) for the latency phase instead, if set: comparing two
 *     versions at one rate, whatever their throughput on the day
 * @param latencyDuration how long the latency phase produces; its p50 and p99 are read as ratios to
 *     the baseline's in the same run, not against an absolute goal, which this machine's noise decides
 * @param latencySettleDuration how long the latency phase's rate runs before it is measured (0: not at all)
 * @param warmUpLimit longest warm-up per mode, if the JIT compiler has not settled before
 * @param synchronousCommit PostgreSQL's synchronous_commit for every session (the embedded server turns it off)
 * @param phaseTimeout longest wait for the decisions of one phase
 * @param seed seed of the fixed event stream, the same for every mode
 * @param resultsFile where the JSON results go
 * @param summaryFile where the summary goes: per scenario the three rates and the service's latency
 * @param chartFile where the SVG chart goes
 */
record BenchmarkOptions(
        boolean quick,
        int events,
        int baselineEvents,
        Duration phaseSeconds,
        int throughputRepeats,
        int keys,
        int wideKeys,
        boolean wideBaseline,
        boolean explainWideKeys,
        int oldDecisionsPerKey,
        List<String> modes,
        List<String> scenarios,
        List<String> baselineScenarios,
        List<String> ceilingScenarios,
        List<String> latencyScenarios,
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
        Path summaryFile,
        Path chartFile) {

    static BenchmarkOptions fromSystemProperties() {
        return from(System.getProperties());
    }

    static BenchmarkOptions from(Properties properties) {
        boolean quick = Boolean.parseBoolean(properties.getProperty("bench.quick"));
        int events = integer(properties, "bench.events", quick ? 20_000 : 60_000);
        Duration phase = Duration.ofSeconds(Math.max(1, integer(properties, "bench.phase-seconds", 5)));
        return new BenchmarkOptions(
                quick,
                events,
                integer(properties, "bench.baseline-events", quick ? 6_000 : Math.min(events, 15_000)),
                phase,
                Math.max(1, integer(properties, "bench.throughput-repeats", 3)),
                integer(properties, "bench.keys", quick ? 2_000 : 10_000),
                integer(properties, "bench.wide-keys", 200_000),
                Boolean.parseBoolean(properties.getProperty("bench.wide-baseline", String.valueOf(!quick))),
                Boolean.parseBoolean(properties.getProperty("bench.explain-wide-keys", "true")),
                integer(properties, "bench.old-decisions-per-key", quick ? 100 : 300),
                list(properties.getProperty("bench.modes", "per-event,batched")),
                // the quick run leaves out the hot key, whose figures no goal reads
                list(properties.getProperty(
                        "bench.scenarios", String.join(",", quick ? Scenario.QUICK_NAMES : Scenario.NAMES))),
                // the quick run's goals compare the baseline with these alone
                scenarioList(properties, "bench.baseline-scenarios", quick, Scenario.UNIFORM),
                // the quick run's goals read end to end over the ceiling of these alone
                scenarioList(properties, "bench.ceiling-scenarios", quick, Scenario.UNIFORM, Scenario.REVERSAL_MIX),
                scenarioList(properties, "bench.latency-scenarios", quick, Scenario.UNIFORM, Scenario.ALL_SCOPES),
                integer(properties, "bench.concurrency", 2),
                integer(properties, "bench.partitions", 12),
                Double.parseDouble(properties.getProperty("bench.latency-load-share", "0.5")),
                Optional.ofNullable(properties.getProperty("bench.latency-rate"))
                        .map(Double::parseDouble),
                // a measured phase, as long as any other at least
                max(phase, Duration.ofSeconds(integer(properties, "bench.latency-seconds", quick ? 5 : 20))),
                Duration.ofSeconds(integer(properties, "bench.latency-settle-seconds", quick ? 3 : 5)),
                Duration.ofSeconds(integer(properties, "bench.warm-up-seconds", quick ? 30 : 45)),
                properties.getProperty("bench.synchronous-commit", "on"),
                Duration.ofMinutes(integer(properties, "bench.timeout-minutes", 10)),
                Long.parseLong(properties.getProperty("bench.seed", "20261123")),
                Path.of(properties.getProperty("bench.results", "target/benchmark/results.json")),
                Path.of(properties.getProperty("bench.summary", "target/benchmark/summary.json")),
                Path.of(properties.getProperty(
                        "bench.chart", quick ? "target/benchmark/benchmark.svg" : "docs/benchmark.svg")));
    }

    /** Whether the mode's phases (throughput, latency) run for the scenario. */
    boolean measures(Scenario scenario, String mode) {
        return mode.equals(DecisionBenchmark.BATCHED)
                || ((scenario.comparedWithBaseline() || (scenario.wideKeys() && wideBaseline))
                        && baselineScenarios.contains(scenario.name()));
    }

    /** Whether the baseline's phases could run for the scenario and its option leaves them out. */
    boolean leavesOutBaseline(Scenario scenario, String mode) {
        return !measures(scenario, mode) && (scenario.comparedWithBaseline() || (scenario.wideKeys() && wideBaseline));
    }

    /** Whether the database's ceiling runs beside the batched service's throughput phases of the scenario. */
    boolean measuresCeiling(Scenario scenario) {
        return ceilingScenarios.contains(scenario.name());
    }

    /** Whether the latency phase (its settling stretch before it) runs for the scenario, in every mode measured. */
    boolean measuresLatency(Scenario scenario) {
        return latencyScenarios.contains(scenario.name());
    }

    /** The scenarios named by the option; if it is not given, the quick run's or else every scenario. */
    private static List<String> scenarioList(
            Properties properties, String name, boolean quick, Scenario... quickDefault) {
        String given = properties.getProperty(name);
        if (given != null) {
            List<String> named = list(given);
            named.forEach(Scenario::named);
            return named;
        }
        return quick ? Arrays.stream(quickDefault).map(Scenario::name).toList() : Scenario.NAMES;
    }

    private static int integer(Properties properties, String name, int orElse) {
        String value = properties.getProperty(name);
        return value == null ? orElse : Integer.parseInt(value.trim());
    }

    private static Duration max(Duration one, Duration other) {
        return one.compareTo(other) >= 0 ? one : other;
    }

    private static List<String> list(String commaSeparated) {
        return Arrays.stream(commaSeparated.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }
}
