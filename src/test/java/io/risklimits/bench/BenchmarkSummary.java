package io.risklimits.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The figures of a run in a few names (target/benchmark/summary.json), for a reader or a script that
 * compares two runs: per scenario the baseline's, the service's and the database ceiling's decisions
 * per second (the median of the rounds, and each round's beside it with the seconds its phase lasted),
 * the service's latency at half its peak, and what a decision cost in each mode, at its peak and in its
 * latency phase; under "ratios", what the run is read by, each as the median and the spread (largest
 * less smallest) of its rounds' ratios, every round's ratio taken between phases of that round; under
 * "baseline_latency" the baseline's latency at half its own peak. A figure the run did not measure (a
 * mode or scenario left out) is null.
 */
final class BenchmarkSummary {

    private static final List<Scenario> ORDER = List.of(
            Scenario.UNIFORM,
            Scenario.HOT_KEY,
            Scenario.SHALLOW_HISTORY,
            Scenario.REVERSAL_MIX,
            Scenario.HOLDS_MIX,
            Scenario.FX_MIX,
            Scenario.WIDE_KEYS,
            Scenario.ALL_SCOPES,
            Scenario.HOT_ACCOUNT);

    // the key of a mode's cost in its latency phase, after the mode's name
    static final String LATENCY_PHASE = "_latency";

    private BenchmarkSummary() {}

    static Map<String, Object> of(BenchmarkReport report, String baseline, String service) {
        Map<String, Object> summary = new LinkedHashMap<>();
        Map<String, Object> ratios = new LinkedHashMap<>();
        Map<String, Object> baselineLatency = new LinkedHashMap<>();
        for (Scenario scenario : ORDER) {
            Optional<RunResult> base = find(report, scenario, baseline);
            Optional<RunResult> batched = find(report, scenario, service);
            if (base.isEmpty() && batched.isEmpty()) {
                continue;
            }
            Map<String, Object> figures = new LinkedHashMap<>();
            figures.put(
                    "baseline_per_s",
                    base.map(run -> rounded(run.throughput().decisionsPerSecond()))
                            .orElse(null));
            figures.put(
                    "batched_per_s",
                    batched.map(run -> rounded(run.throughput().decisionsPerSecond()))
                            .orElse(null));
            figures.put(
                    "ceiling_per_s",
                    batched.filter(run -> run.ceiling() != null)
                            .map(run -> rounded(run.ceiling().decisionsPerSecond()))
                            .orElse(null));
            figures.put(
                    "p50_ms",
                    batched.map(RunResult::latency)
                            .map(RunResult.Latency::p50Millis)
                            .orElse(null));
            figures.put(
                    "p99_ms",
                    batched.map(RunResult::latency)
                            .map(RunResult.Latency::p99Millis)
                            .orElse(null));
            figures.put("rounds", rounds(base, batched));
            Map<String, Object> cost = new LinkedHashMap<>();
            cost.put(
                    baseline,
                    base.map(run -> cost(run.throughput(), run.rounds())).orElse(null));
            cost.put(
                    service,
                    batched.map(run -> cost(run.throughput(), run.rounds())).orElse(null));
            cost.put(
                    DecisionBenchmark.CEILING,
                    batched.filter(run -> run.ceiling() != null)
                            .map(run -> cost(run.ceiling(), run.ceilingRounds()))
                            .orElse(null));
            cost.put(
                    baseline + LATENCY_PHASE,
                    base.map(RunResult::latency).map(BenchmarkSummary::cost).orElse(null));
            cost.put(
                    service + LATENCY_PHASE,
                    batched.map(RunResult::latency).map(BenchmarkSummary::cost).orElse(null));
            figures.put("cost", cost);
            summary.put(scenario.summaryName(), figures);
            ratios.put(scenario.summaryName(), ratiosOf(base, batched));
            base.filter(run -> run.latency() != null)
                    .ifPresent(run -> baselineLatency.put(
                            scenario.summaryName(),
                            BenchmarkReport.map(
                                    "p50_ms",
                                    run.latency().p50Millis(),
                                    "p99_ms",
                                    run.latency().p99Millis())));
        }
        Optional<RunResult> plain = find(report, Scenario.UNIFORM, service);
        for (Scenario mix : List.of(Scenario.REVERSAL_MIX, Scenario.HOLDS_MIX, Scenario.FX_MIX)) {
            Optional<RunResult> mixed = find(report, mix, service);
            if (plain.isPresent() && mixed.isPresent()) {
                ratios.put(
                        mix.summaryName() + "_over_uniform_30d",
                        spread(perRound(
                                rates(mixed.get().rounds()), rates(plain.get().rounds()))));
                if (plain.get().ceiling() != null && mixed.get().ceiling() != null) {
                    ratios.put(
                            mix.summaryName() + "_over_uniform_30d_ceiling",
                            spread(perRound(
                                    rates(mixed.get().ceilingRounds()),
                                    rates(plain.get().ceilingRounds()))));
                }
            }
        }
        Optional<RunResult> wide = find(report, Scenario.WIDE_KEYS, service);
        if (plain.isPresent() && wide.isPresent()) {
            ratios.put(
                    "wide_keys_over_uniform_30d",
                    spread(perRound(
                            rates(wide.get().rounds()), rates(plain.get().rounds()))));
        }
        for (Scenario scoped : List.of(Scenario.ALL_SCOPES, Scenario.HOT_ACCOUNT)) {
            Optional<RunResult> run = find(report, scoped, service);
            if (plain.isPresent() && run.isPresent()) {
                ratios.put(
                        scoped.summaryName() + "_over_uniform_30d",
                        spread(perRound(
                                rates(run.get().rounds()), rates(plain.get().rounds()))));
            }
        }
        Optional<RunResult> shallow = find(report, Scenario.SHALLOW_HISTORY, service);
        if (plain.isPresent() && shallow.isPresent()) {
            ratios.put(
                    "uniform_30d_over_uniform_1d",
                    spread(perRound(
                            rates(plain.get().rounds()), rates(shallow.get().rounds()))));
        }
        summary.put("ratios", ratios);
        summary.put("baseline_latency", baselineLatency);
        return summary;
    }

    /** Each round's decisions per second, and the seconds each of those phases lasted. */
    private static Map<String, Object> rounds(Optional<RunResult> base, Optional<RunResult> batched) {
        Map<String, Object> rounds = new LinkedHashMap<>();
        rounds.put(
                "baseline_per_s",
                base.map(run -> each(run.rounds(), BenchmarkSummary::rate)).orElse(null));
        rounds.put(
                "batched_per_s",
                batched.map(run -> each(run.rounds(), BenchmarkSummary::rate)).orElse(null));
        rounds.put(
                "ceiling_per_s",
                batched.filter(run -> !run.ceilingRounds().isEmpty())
                        .map(run -> each(run.ceilingRounds(), BenchmarkSummary::rate))
                        .orElse(null));
        rounds.put(
                "baseline_seconds",
                base.map(run -> each(run.rounds(), BenchmarkSummary::seconds)).orElse(null));
        rounds.put(
                "batched_seconds",
                batched.map(run -> each(run.rounds(), BenchmarkSummary::seconds))
                        .orElse(null));
        rounds.put(
                "ceiling_seconds",
                batched.filter(run -> !run.ceilingRounds().isEmpty())
                        .map(run -> each(run.ceilingRounds(), BenchmarkSummary::seconds))
                        .orElse(null));
        return rounds;
    }

    /** The median of each cost figure, and each round's figures. */
    private static Map<String, Object> cost(RunResult.Throughput median, List<RunResult.Throughput> rounds) {
        if (median.cost() == null) {
            return null;
        }
        Map<String, Object> cost = median.cost().figures();
        cost.put(
                "rounds",
                rounds.stream()
                        .map(round -> round.cost() == null ? null : round.cost().figures())
                        .toList());
        return cost;
    }

    /**
     * What a decision cost in the latency phase, as a live stream at that rate polls and batches, with
     * the events per transaction that made; null where the phase ran without it.
     */
    private static Map<String, Object> cost(RunResult.Latency latency) {
        if (latency.cost() == null) {
            return null;
        }
        Map<String, Object> cost = latency.cost().figures();
        cost.put("events_per_transaction", Math.round(latency.eventsPerTransaction() * 10) / 10.0);
        return cost;
    }

    /**
     * The scenario's ratios: each is null where one of its two figures was not measured (a mode, its
     * ceiling or its latency phase left out).
     */
    private static Map<String, Object> ratiosOf(Optional<RunResult> base, Optional<RunResult> batched) {
        Map<String, Object> ratios = new LinkedHashMap<>();
        ratios.put(
                "end_to_end_over_ceiling",
                batched.filter(run -> run.ceiling() != null)
                        .map(run -> spread(perRound(rates(run.rounds()), rates(run.ceilingRounds()))))
                        .orElse(null));
        boolean both = base.isPresent() && batched.isPresent();
        boolean latencies =
                both && base.get().latency() != null && batched.get().latency() != null;
        ratios.put(
                "batched_over_baseline",
                both
                        ? spread(perRound(
                                rates(batched.get().rounds()), rates(base.get().rounds())))
                        : null);
        // one latency phase per scenario and mode: one round
        ratios.put(
                "p50_batched_over_baseline",
                latencies
                        ? spread(perRound(
                                List.of((double) batched.get().latency().p50Millis()),
                                List.of((double) base.get().latency().p50Millis())))
                        : null);
        ratios.put(
                "p99_batched_over_baseline",
                latencies
                        ? spread(perRound(
                                List.of((double) batched.get().latency().p99Millis()),
                                List.of((double) base.get().latency().p99Millis())))
                        : null);
        return ratios;
    }

    /** Round by round, numerator over denominator (as many rounds as both have). */
    private static List<Double> perRound(List<Double> numerators, List<Double> denominators) {
        List<Double> ratios = new ArrayList<>();
        for (int round = 0; round < Math.min(numerators.size(), denominators.size()); round++) {
            if (denominators.get(round) != 0) {
                ratios.add(numerators.get(round) / denominators.get(round));
            }
        }
        return ratios;
    }

    /**
     * {"median": m, "spread": largest - smallest, "rounds": [...]}; of an even number of rounds the median
     * is the mean of the middle two, and of a single round there is no spread (null).
     */
    private static Map<String, Object> spread(List<Double> ratios) {
        if (ratios.isEmpty()) {
            return null;
        }
        List<Double> sorted = ratios.stream().sorted().toList();
        int middle = sorted.size() / 2;
        double median = sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("median", ratio(median));
        figures.put("spread", sorted.size() < 2 ? null : ratio(sorted.get(sorted.size() - 1) - sorted.get(0)));
        figures.put("rounds", ratios.stream().map(BenchmarkSummary::ratio).toList());
        return figures;
    }

    private static List<Double> rates(List<RunResult.Throughput> rounds) {
        return rounds.stream().map(RunResult.Throughput::decisionsPerSecond).toList();
    }

    private static <T> List<T> each(List<RunResult.Throughput> rounds, Function<RunResult.Throughput, T> figure) {
        return rounds.stream().map(figure).toList();
    }

    private static long rate(RunResult.Throughput round) {
        return rounded(round.decisionsPerSecond());
    }

    private static double seconds(RunResult.Throughput round) {
        return Math.round(round.seconds() * 100) / 100.0;
    }

    private static Optional<RunResult> find(BenchmarkReport report, Scenario scenario, String mode) {
        return report.runs().stream()
                .filter(run ->
                        run.scenario().equals(scenario.name()) && run.mode().equals(mode))
                .findFirst();
    }

    private static long rounded(double perSecond) {
        return Math.round(perSecond);
    }

    private static Double ratio(double value) {
        return Math.round(1000 * value) / 1000.0;
    }
}
