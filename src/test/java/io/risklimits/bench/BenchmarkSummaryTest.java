package io.risklimits.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BenchmarkSummaryTest {

    private static final String BASELINE = "per-event";
    private static final String BATCHED = DecisionBenchmark.BATCHED;

    private final BenchmarkReport report = BenchmarkReport.of(
            Map.of(),
            Map.of(),
            List.of(BASELINE, BATCHED),
            List.of(
                    run(Scenario.UNIFORM, BASELINE, List.of(1_000, 1_100, 1_200), List.of(), true),
                    run(
                            Scenario.UNIFORM,
                            BATCHED,
                            List.of(30_000, 31_000, 32_000),
                            List.of(32_000, 32_000, 32_000),
                            true),
                    run(Scenario.REVERSAL_MIX, BASELINE, List.of(1_000, 1_000, 1_000), List.of(), false),
                    run(
                            Scenario.REVERSAL_MIX,
                            BATCHED,
                            List.of(22_000, 23_000, 24_000),
                            List.of(24_000, 24_000, 24_000),
                            false),
                    run(Scenario.HOT_KEY, BATCHED, List.of(29_000, 29_000, 29_000), List.of(), false)));

    private final Map<String, Object> summary = BenchmarkSummary.of(report, BASELINE, BATCHED);

    @Test
    void aScenarioWithoutItsCeilingHasNoRatioToItNorCeilingFiguresButItsOwnCost() {
        Map<String, Object> hotKey = figures("hot_key_30d");

        assertThat(hotKey).containsEntry("ceiling_per_s", null);
        assertThat(figures(hotKey, "rounds"))
                .containsEntry("ceiling_per_s", null)
                .containsEntry("ceiling_seconds", null);
        assertThat(figures(hotKey, "cost")).containsEntry(DecisionBenchmark.CEILING, null);
        assertThat(figures(figures(hotKey, "cost"), BATCHED)).containsKey("pg_cpu_us");
        assertThat(figures(figures("ratios"), "hot_key_30d")).containsEntry("end_to_end_over_ceiling", null);
        assertThat(figures(figures("ratios"), "hot_key_30d_over_uniform_30d")).isNull();
    }

    @Test
    void aScenarioWithoutItsLatencyPhaseHasNullLatencyFiguresAndItsThroughputRatiosStill() {
        Map<String, Object> mix = figures("reversal_mix");
        Map<String, Object> mixRatios = figures(figures("ratios"), "reversal_mix");

        assertThat(mix).containsEntry("p50_ms", null).containsEntry("p99_ms", null);
        assertThat(mixRatios).containsEntry("p50_batched_over_baseline", null);
        assertThat(mixRatios).containsEntry("p99_batched_over_baseline", null);
        assertThat(figures(mixRatios, "end_to_end_over_ceiling")).containsEntry("median", 0.958);
        assertThat(figures(mixRatios, "batched_over_baseline")).containsEntry("median", 23.0);
        assertThat(figures(figures("ratios"), "reversal_mix_over_uniform_30d")).containsEntry("spread", 0.017);
        assertThat(figures("baseline_latency")).containsOnlyKeys("uniform_30d");
        assertThat(figures("uniform_30d")).containsEntry("p50_ms", 30L);
        assertThat(figures(figures(mix, "cost"), BATCHED + BenchmarkSummary.LATENCY_PHASE))
                .isNull();
    }

    @Test
    void aLatencyPhaseHasItsOwnCostBesideTheThroughputPhasesWithItsEventsPerTransaction() {
        Map<String, Object> cost = figures(figures("uniform_30d"), "cost");

        assertThat(figures(cost, BATCHED + BenchmarkSummary.LATENCY_PHASE))
                .containsEntry("pg_cpu_us", 45.0)
                .containsEntry("service_cpu_us", 30.0)
                .containsEntry("events_per_transaction", 61.3)
                .doesNotContainKey("rounds");
        assertThat(figures(cost, BATCHED)).containsEntry("pg_cpu_us", 30.0);
    }

    @Test
    void theTableAndTheChartShowARunWithoutLatencyOrCeilingWithoutInventingFigures() {
        assertThat(report.modeRatios())
                .filteredOn(ratio -> ratio.scenario().equals(Scenario.REVERSAL_MIX.name()))
                .singleElement()
                .satisfies(ratio -> assertThat(ratio.p50LatencyRatio()).isNull());
        assertThat(report.table()).containsPattern("hot-key-30d +batched +2000 +720h +29000 +- +29000 +- +- +- +- +- ");
        assertThat(SvgChart.render(report, "test")).contains("hot-key-30d");
    }

    @Test
    void theHoldsMixIsReadAgainstUniformThirtyDaysEndToEndAndAtTheCeilingWithItsOwnCost() {
        Scenario holdsMix = Scenario.named("holds-mix");
        BenchmarkReport withHolds = BenchmarkReport.of(
                Map.of(),
                Map.of(),
                List.of(BASELINE, BATCHED),
                List.of(
                        run(
                                Scenario.UNIFORM,
                                BATCHED,
                                List.of(30_000, 31_000, 32_000),
                                List.of(32_000, 32_000, 32_000),
                                false),
                        run(
                                holdsMix,
                                BATCHED,
                                List.of(24_000, 24_800, 25_600),
                                List.of(25_600, 24_000, 28_800),
                                false)));
        Map<String, Object> holdsSummary = BenchmarkSummary.of(withHolds, BASELINE, BATCHED);
        Map<String, Object> ratios = figures(holdsSummary, "ratios");

        assertThat(figures(ratios, "holds_mix_over_uniform_30d"))
                .containsEntry("median", 0.8)
                .containsEntry("rounds", List.of(0.8, 0.8, 0.8));
        assertThat(figures(ratios, "holds_mix_over_uniform_30d_ceiling"))
                .containsEntry("median", 0.8)
                .containsEntry("rounds", List.of(0.8, 0.75, 0.9));
        assertThat(figures(figures(figures(holdsSummary, "holds_mix"), "cost"), BATCHED))
                .containsKey("pg_cpu_us");
        assertThat(figures(figures(figures(holdsSummary, "holds_mix"), "cost"), DecisionBenchmark.CEILING))
                .containsKey("pg_cpu_us");
        assertThat(figures(ratios, "holds_mix")).containsEntry("batched_over_baseline", null);
        assertThat(withHolds.table())
                .contains("batched: with holds (60 % captured, 10 % incremented, 5 % expiring) / without"
                        + " (uniform, 30 days): throughput 0.80")
                .contains("ceiling: with holds (60 % captured, 10 % incremented, 5 % expiring) / without"
                        + " (uniform, 30 days): throughput 0.75");
    }

    @Test
    void theCurrencyMixIsReadAgainstUniformThirtyDaysEndToEnd() {
        BenchmarkReport withRates = BenchmarkReport.of(
                Map.of(),
                Map.of(),
                List.of(BASELINE, BATCHED),
                List.of(
                        run(
                                Scenario.UNIFORM,
                                BATCHED,
                                List.of(30_000, 31_000, 32_000),
                                List.of(32_000, 32_000, 32_000),
                                false),
                        run(
                                Scenario.FX_MIX,
                                BATCHED,
                                List.of(28_500, 29_450, 28_800),
                                List.of(32_000, 32_000, 32_000),
                                false)));
        Map<String, Object> ratios = figures(BenchmarkSummary.of(withRates, BASELINE, BATCHED), "ratios");

        assertThat(figures(ratios, "fx_mix_over_uniform_30d"))
                .containsEntry("median", 0.95)
                .containsEntry("rounds", List.of(0.95, 0.95, 0.9));
        assertThat(withRates.table())
                .contains("batched: with 30 % of the authorizations in EUR, GBP, JPY, CAD / all in the limit currency"
                        + " (uniform, 30 days): throughput 0.95");
    }

    private Map<String, Object> figures(String name) {
        return figures(summary, name);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> figures(Map<String, Object> parent, String name) {
        return (Map<String, Object>) parent.get(name);
    }

    private static RunResult run(
            Scenario scenario, String mode, List<Integer> rates, List<Integer> ceilingRates, boolean latency) {
        List<RunResult.Throughput> rounds =
                rates.stream().map(BenchmarkSummaryTest::phase).toList();
        List<RunResult.Throughput> ceilings =
                ceilingRates.stream().map(BenchmarkSummaryTest::phase).toList();
        RunResult.Latency measured = latency
                ? new RunResult.Latency(
                        rates.get(1) / 2.0,
                        1_000,
                        new RunResult.Percentiles(30, 80, 100, 120),
                        new RunResult.Percentiles(35, 85, 105, 125),
                        1.0,
                        61.25,
                        new DecisionCost(45.0, 30.0, 1_100.0, 40.0, 2.0, 1.2, 1.0))
                : null;
        return new RunResult(
                scenario.name(),
                mode,
                2_000,
                scenario.historyDays() * 24,
                scenario.hotKeyShare(),
                rounds.get(1),
                measured,
                null,
                ceilings.isEmpty() ? null : ceilings.get(1),
                rounds,
                ceilings);
    }

    private static RunResult.Throughput phase(int rate) {
        return new RunResult.Throughput(
                rate * 6,
                rate,
                6_000,
                rate,
                1.0,
                500,
                new ProcessCpu.Cost(30, 20),
                new DecisionCost(30.0, 20.0, 900.0, 25.0, 3.0, 0.4, 1.0));
    }
}
