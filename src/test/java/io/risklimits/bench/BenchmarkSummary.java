package io.risklimits.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The figures of a run in a few names (target/benchmark/summary.json), for a reader or a script that
 * compares two runs: per scenario the baseline's, the service's and the database ceiling's decisions
 * per second and the service's latency at half its peak; beside them, under "ratios", what the run is
 * read by, and under "baseline_latency" the baseline's latency at half its own peak. A figure the run
 * did not measure (a mode or scenario left out) is null.
 */
final class BenchmarkSummary {

    private static final List<Scenario> ORDER =
            List.of(Scenario.UNIFORM, Scenario.HOT_KEY, Scenario.SHALLOW_HISTORY, Scenario.REVERSAL_MIX);

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
            figures.put("p50_ms", batched.map(run -> run.latency().p50Millis()).orElse(null));
            figures.put("p99_ms", batched.map(run -> run.latency().p99Millis()).orElse(null));
            summary.put(scenario.summaryName(), figures);
            ratios.put(scenario.summaryName(), ratiosOf(base, batched));
            base.ifPresent(run -> baselineLatency.put(
                    scenario.summaryName(),
                    BenchmarkReport.map(
                            "p50_ms",
                            run.latency().p50Millis(),
                            "p99_ms",
                            run.latency().p99Millis())));
        }
        Optional<RunResult> plain = find(report, Scenario.UNIFORM, service);
        Optional<RunResult> mixed = find(report, Scenario.REVERSAL_MIX, service);
        if (plain.isPresent() && mixed.isPresent()) {
            ratios.put(
                    "reversal_mix_over_uniform_30d",
                    ratio(
                            mixed.get().throughput().decisionsPerSecond(),
                            plain.get().throughput().decisionsPerSecond()));
            if (plain.get().ceiling() != null && mixed.get().ceiling() != null) {
                ratios.put(
                        "reversal_mix_over_uniform_30d_ceiling",
                        ratio(
                                mixed.get().ceiling().decisionsPerSecond(),
                                plain.get().ceiling().decisionsPerSecond()));
            }
        }
        Optional<RunResult> shallow = find(report, Scenario.SHALLOW_HISTORY, service);
        if (plain.isPresent() && shallow.isPresent()) {
            ratios.put(
                    "uniform_30d_over_uniform_1d",
                    ratio(
                            plain.get().throughput().decisionsPerSecond(),
                            shallow.get().throughput().decisionsPerSecond()));
        }
        summary.put("ratios", ratios);
        summary.put("baseline_latency", baselineLatency);
        return summary;
    }

    /** The scenario's ratios: each is null where one of its two figures was not measured. */
    private static Map<String, Object> ratiosOf(Optional<RunResult> base, Optional<RunResult> batched) {
        Map<String, Object> ratios = new LinkedHashMap<>();
        ratios.put(
                "end_to_end_over_ceiling",
                batched.filter(run -> run.ceiling() != null)
                        .map(run -> ratio(
                                run.throughput().decisionsPerSecond(),
                                run.ceiling().decisionsPerSecond()))
                        .orElse(null));
        boolean both = base.isPresent() && batched.isPresent();
        ratios.put(
                "batched_over_baseline",
                both
                        ? ratio(
                                batched.get().throughput().decisionsPerSecond(),
                                base.get().throughput().decisionsPerSecond())
                        : null);
        ratios.put(
                "p50_batched_over_baseline",
                both
                        ? ratio(
                                batched.get().latency().p50Millis(),
                                base.get().latency().p50Millis())
                        : null);
        ratios.put(
                "p99_batched_over_baseline",
                both
                        ? ratio(
                                batched.get().latency().p99Millis(),
                                base.get().latency().p99Millis())
                        : null);
        return ratios;
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

    private static Double ratio(double numerator, double denominator) {
        return denominator == 0 ? null : Math.round(1000 * numerator / denominator) / 1000.0;
    }
}
