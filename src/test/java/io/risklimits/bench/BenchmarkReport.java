package io.risklimits.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * All runs of one benchmark and the comparisons drawn from them: the service end to end against the
 * database's ceiling, each mode against the baseline (the first mode) per scenario, the reversal and
 * holds mixes against plain uniform traffic, and each mode's throughput with 30 days of history against 1 day.
 */
record BenchmarkReport(
        Map<String, Object> environment,
        Map<String, Object> settings,
        List<RunResult> runs,
        List<CeilingRatio> ceilingRatios,
        List<ModeRatio> modeRatios,
        List<ReversalRatio> reversalRatios,
        List<HoldsRatio> holdsRatios,
        List<FxRatio> fxRatios,
        List<HistoryRatio> historyRatios,
        Double headlineRatio) {

    /** End to end / the database's ceiling in one scenario: 1 would be a Kafka path that costs nothing. */
    record CeilingRatio(String scenario, String mode, double throughputRatio) {}

    /**
     * mode / baseline in one scenario: above 1 means more decisions per second; the latencies are each
     * at half of its own mode's throughput, below 1 means faster (null where either latency phase did
     * not run).
     */
    record ModeRatio(
            String scenario,
            String mode,
            String baseline,
            double throughputRatio,
            Double p50LatencyRatio,
            Double p99LatencyRatio) {}

    /** Uniform 30 d with 10 % reversals / without, per mode (and for the ceiling). */
    record ReversalRatio(String mode, double throughputRatio) {}

    /** The holds mix / uniform 30 d, per mode (and for the ceiling). */
    record HoldsRatio(String mode, double throughputRatio) {}

    /** The currency mix / uniform 30 d, per mode. */
    record FxRatio(String mode, double throughputRatio) {}

    /**
     * With 30 days of history / with 1 day: throughput about 1, and CPU per decision about 1, mean cost
     * does not grow with history. The CPU ratios (null where CPU could not be read) hold where a machine
     * that runs slow for a while moves decisions per second.
     */
    record HistoryRatio(String mode, double throughputRatio, Double postgresCpuRatio, Double jvmCpuRatio) {}

    static BenchmarkReport of(
            Map<String, Object> environment, Map<String, Object> settings, List<String> modes, List<RunResult> runs) {
        List<ModeRatio> modeRatios = new ArrayList<>();
        String baseline = modes.get(0);
        for (String scenario : scenariosIn(runs)) {
            Optional<RunResult> base = find(runs, scenario, baseline);
            for (String mode : modes.subList(1, modes.size())) {
                Optional<RunResult> other = find(runs, scenario, mode);
                if (base.isPresent() && other.isPresent()) {
                    RunResult.Latency baseLatency = base.get().latency();
                    RunResult.Latency otherLatency = other.get().latency();
                    boolean latencies = baseLatency != null && otherLatency != null;
                    modeRatios.add(new ModeRatio(
                            scenario,
                            mode,
                            baseline,
                            other.get().throughput().decisionsPerSecond()
                                    / base.get().throughput().decisionsPerSecond(),
                            latencies ? (double) otherLatency.p50Millis() / Math.max(1, baseLatency.p50Millis()) : null,
                            latencies
                                    ? (double) otherLatency.p99Millis() / Math.max(1, baseLatency.p99Millis())
                                    : null));
                }
            }
        }
        List<CeilingRatio> ceilingRatios = runs.stream()
                .filter(run -> run.ceiling() != null)
                .map(run -> new CeilingRatio(
                        run.scenario(),
                        run.mode(),
                        run.throughput().decisionsPerSecond() / run.ceiling().decisionsPerSecond()))
                .toList();
        List<ReversalRatio> reversalRatios = overUniform(runs, modes, Scenario.REVERSAL_MIX, ReversalRatio::new);
        List<HoldsRatio> holdsRatios = overUniform(runs, modes, Scenario.HOLDS_MIX, HoldsRatio::new);
        List<FxRatio> fxRatios = overUniform(runs, modes, Scenario.FX_MIX, FxRatio::new);
        List<HistoryRatio> historyRatios = new ArrayList<>();
        for (String mode : modes) {
            Optional<RunResult> deep = find(runs, Scenario.UNIFORM.name(), mode);
            Optional<RunResult> shallow = find(runs, Scenario.SHALLOW_HISTORY.name(), mode);
            if (deep.isPresent() && shallow.isPresent()) {
                ProcessCpu.Cost deepCpu = deep.get().throughput().cpuPerThousandDecisions();
                ProcessCpu.Cost shallowCpu = shallow.get().throughput().cpuPerThousandDecisions();
                boolean cpuRead = deepCpu != null && shallowCpu != null;
                historyRatios.add(new HistoryRatio(
                        mode,
                        deep.get().throughput().decisionsPerSecond()
                                / shallow.get().throughput().decisionsPerSecond(),
                        cpuRead ? deepCpu.postgresMillis() / shallowCpu.postgresMillis() : null,
                        cpuRead ? deepCpu.jvmMillis() / shallowCpu.jvmMillis() : null));
            }
        }
        Double headline = modeRatios.stream()
                .filter(ratio -> ratio.scenario().equals(Scenario.UNIFORM.name()))
                .map(ModeRatio::throughputRatio)
                .findFirst()
                .orElse(null);
        return new BenchmarkReport(
                environment,
                settings,
                runs,
                ceilingRatios,
                modeRatios,
                reversalRatios,
                holdsRatios,
                fxRatios,
                historyRatios,
                headline);
    }

    /** The mixed scenario's throughput over uniform 30 d's, per mode, and the ceiling's where both ran. */
    private static <T> List<T> overUniform(
            List<RunResult> runs, List<String> modes, Scenario mixedScenario, BiFunction<String, Double, T> ratio) {
        List<T> ratios = new ArrayList<>();
        for (String mode : modes) {
            Optional<RunResult> mixed = find(runs, mixedScenario.name(), mode);
            Optional<RunResult> plain = find(runs, Scenario.UNIFORM.name(), mode);
            if (mixed.isPresent() && plain.isPresent()) {
                ratios.add(ratio.apply(
                        mode,
                        mixed.get().throughput().decisionsPerSecond()
                                / plain.get().throughput().decisionsPerSecond()));
                if (mixed.get().ceiling() != null && plain.get().ceiling() != null) {
                    ratios.add(ratio.apply(
                            DecisionBenchmark.CEILING,
                            mixed.get().ceiling().decisionsPerSecond()
                                    / plain.get().ceiling().decisionsPerSecond()));
                }
            }
        }
        return ratios;
    }

    String table() {
        StringBuilder text = new StringBuilder();
        text.append(String.format(
                "%-16s %-10s %6s %8s %12s %10s %12s %9s %7s %7s %7s %9s %9s %11s%n",
                "scenario",
                "mode",
                "keys",
                "history",
                "decisions/s",
                "ceiling/s",
                "incl.resume",
                "rate",
                "p50 ms",
                "p99 ms",
                "p999 ms",
                "p99 sched",
                "approved",
                "cpu ms/1k"));
        for (RunResult run : runs) {
            Optional<RunResult.Latency> latency = Optional.ofNullable(run.latency());
            text.append(String.format(
                    "%-16s %-10s %6d %7dh %12.0f %10s %12.0f %9s %7s %7s %7s %9s %8.1f%% %11s%n",
                    run.scenario(),
                    run.mode(),
                    run.keys(),
                    run.historyRowsPerKey(),
                    run.throughput().decisionsPerSecond(),
                    run.ceiling() == null
                            ? "-"
                            : String.format("%.0f", run.ceiling().decisionsPerSecond()),
                    run.throughput().fromResumeDecisionsPerSecond(),
                    latency.map(each -> String.format("%.0f", each.targetEventsPerSecond()))
                            .orElse("-"),
                    latency.map(each -> String.valueOf(each.p50Millis())).orElse("-"),
                    latency.map(each -> String.valueOf(each.p99Millis())).orElse("-"),
                    latency.map(each -> String.valueOf(each.p999Millis())).orElse("-"),
                    latency.map(each -> String.valueOf(each.fromEventScheduled().p99Millis()))
                            .orElse("-"),
                    100 * run.throughput().approvedShare(),
                    cpuColumn(run.throughput().cpuPerThousandDecisions())));
        }
        for (RunResult run : runs) {
            text.append(String.format(
                    "cost per decision, %s %s: %s%n",
                    run.scenario(), run.mode(), run.throughput().cost()));
            if (run.ceiling() != null) {
                text.append(String.format(
                        "cost per decision, %s %s: %s%n",
                        run.scenario(), DecisionBenchmark.CEILING, run.ceiling().cost()));
            }
        }
        for (CeilingRatio ratio : ceilingRatios) {
            text.append(String.format(
                    "%s end to end / the database's ceiling, %s: %.2f%n",
                    ratio.mode(), ratio.scenario(), ratio.throughputRatio()));
        }
        for (ModeRatio ratio : modeRatios) {
            text.append(String.format(
                    "%s / %s, %s: throughput x%.2f; latency at half of each one's peak: %s%n",
                    ratio.mode(),
                    ratio.baseline(),
                    ratio.scenario(),
                    ratio.throughputRatio(),
                    ratio.p50LatencyRatio() == null
                            ? "not measured"
                            : String.format("p50 x%.2f, p99 x%.2f", ratio.p50LatencyRatio(), ratio.p99LatencyRatio())));
        }
        for (ReversalRatio ratio : reversalRatios) {
            text.append(String.format(
                    "%s: with 10 %% reversals / without (uniform, 30 days): throughput %.2f%n",
                    ratio.mode(), ratio.throughputRatio()));
        }
        Scenario.HoldMix holds = Scenario.HOLDS_MIX.holds();
        for (HoldsRatio ratio : holdsRatios) {
            text.append(String.format(
                    "%s: with holds (%.0f %% captured, %.0f %% incremented, %.0f %% expiring) / without (uniform,"
                            + " 30 days): throughput %.2f%n",
                    ratio.mode(),
                    100 * holds.captureShare(),
                    100 * holds.incrementShare(),
                    100 * holds.expiringShare(),
                    ratio.throughputRatio()));
        }
        for (FxRatio ratio : fxRatios) {
            text.append(String.format(
                    "%s: with %.0f %% of the authorizations in %s / all in the limit currency (uniform, 30 days):"
                            + " throughput %.2f%n",
                    ratio.mode(),
                    100 * Scenario.FX_MIX.foreignShare(),
                    String.join(", ", Scenario.FOREIGN_CURRENCIES),
                    ratio.throughputRatio()));
        }
        for (HistoryRatio ratio : historyRatios) {
            text.append(String.format(
                    "%s: with 30 days of history / with 1 day: throughput %.2f, CPU per decision: PostgreSQL %s,"
                            + " JVM %s%n",
                    ratio.mode(),
                    ratio.throughputRatio(),
                    ratio.postgresCpuRatio() == null ? "-" : String.format("%.2f", ratio.postgresCpuRatio()),
                    ratio.jvmCpuRatio() == null ? "-" : String.format("%.2f", ratio.jvmCpuRatio())));
        }
        if (headlineRatio != null) {
            text.append(String.format(
                    "HEADLINE: %s decides x%.2f as many events per second as %s (uniform, 30 days)%n",
                    modeRatios.get(0).mode(), headlineRatio, modeRatios.get(0).baseline()));
        }
        return text.toString();
    }

    /** "PostgreSQL + JVM" CPU milliseconds per 1,000 decisions. */
    private static String cpuColumn(ProcessCpu.Cost cpu) {
        return cpu == null ? "-" : String.format("%.0f + %.0f", cpu.postgresMillis(), cpu.jvmMillis());
    }

    static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    private static List<String> scenariosIn(List<RunResult> runs) {
        return runs.stream().map(RunResult::scenario).distinct().toList();
    }

    private static Optional<RunResult> find(List<RunResult> runs, String scenario, String mode) {
        return runs.stream()
                .filter(run -> run.scenario().equals(scenario) && run.mode().equals(mode))
                .findFirst();
    }
}
