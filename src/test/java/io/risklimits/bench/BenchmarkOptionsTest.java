package io.risklimits.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class BenchmarkOptionsTest {

    private static final String BASELINE = "per-event";

    @Test
    void theQuickRunMeasuresTheBaselineOnlyInTheScenariosItsGoalsCompareWithIt() {
        BenchmarkOptions quick = options("bench.quick", "true");

        assertThat(Scenario.ALL.stream()
                        .filter(scenario -> quick.measures(scenario, BASELINE))
                        .map(Scenario::name))
                .containsExactly(Scenario.UNIFORM.name());
        assertThat(Scenario.ALL).allMatch(scenario -> quick.measures(scenario, DecisionBenchmark.BATCHED));
    }

    @Test
    void theQuickRunLeavesOutTheHotKeyWhichNoGoalReadsAndTheFullRunRunsEveryScenario() {
        assertThat(options("bench.quick", "true").scenarios())
                .doesNotContain(Scenario.HOT_KEY.name())
                .containsAll(Scenario.NAMES.stream()
                        .filter(name -> !name.equals(Scenario.HOT_KEY.name()))
                        .toList());
        assertThat(options().scenarios()).containsExactlyElementsOf(Scenario.NAMES);
        assertThat(options("bench.quick", "true", "bench.scenarios", "hot-key-30d")
                        .scenarios())
                .containsExactly(Scenario.HOT_KEY.name());
    }

    @Test
    void theQuickRunMeasuresTheCeilingOnlyOfTheScenariosWhoseRatioToItIsAGoal() {
        BenchmarkOptions quick = options("bench.quick", "true");

        assertThat(Scenario.ALL.stream().filter(quick::measuresCeiling).map(Scenario::name))
                .containsExactly(Scenario.UNIFORM.name(), Scenario.REVERSAL_MIX.name());
    }

    @Test
    void theQuickRunMeasuresTheHoldsMixEndToEndButNotItsCeilingNorItsBaselineNorItsLatency() {
        BenchmarkOptions quick = options("bench.quick", "true");
        Scenario holdsMix = Scenario.named("holds-mix");

        assertThat(quick.scenarios()).contains(holdsMix.name());
        assertThat(quick.measures(holdsMix, DecisionBenchmark.BATCHED)).isTrue();
        assertThat(quick.measuresCeiling(holdsMix)).isFalse();
        assertThat(quick.measures(holdsMix, BASELINE)).isFalse();
        assertThat(quick.measuresLatency(holdsMix)).isFalse();
    }

    @Test
    void theBaselineNeverRunsTheHoldsMixWhoseCapturesAndIncrementsItDoesNotKnow() {
        Scenario holdsMix = Scenario.named("holds-mix");

        assertThat(options().measures(holdsMix, BASELINE)).isFalse();
        assertThat(options("bench.baseline-scenarios", "holds-mix").measures(holdsMix, BASELINE))
                .isFalse();
    }

    @Test
    void theQuickRunMeasuresLatencyOfUniformThirtyDaysAndAllScopesOnly() {
        BenchmarkOptions quick = options("bench.quick", "true");

        assertThat(Scenario.ALL.stream().filter(quick::measuresLatency).map(Scenario::name))
                .containsExactly(Scenario.UNIFORM.name(), Scenario.ALL_SCOPES.name());
    }

    @Test
    void theFullRunMeasuresEveryPhaseOfEveryScenario() {
        BenchmarkOptions full = options();

        assertThat(Scenario.ALL)
                .allMatch(scenario ->
                        full.measures(scenario, BASELINE) == (scenario.comparedWithBaseline() || scenario.wideKeys()));
        assertThat(Scenario.ALL).allMatch(scenario -> full.measures(scenario, DecisionBenchmark.BATCHED));
        assertThat(Scenario.ALL).allMatch(full::measuresCeiling);
        assertThat(Scenario.ALL).allMatch(full::measuresLatency);
    }

    @Test
    void anExplicitOptionOverridesWhatTheQuickRunLeavesOut() {
        BenchmarkOptions quick = options(
                "bench.quick", "true",
                "bench.baseline-scenarios", "hot-key-30d",
                "bench.ceiling-scenarios", "wide-keys,hot-key-30d",
                "bench.latency-scenarios", "");

        assertThat(Scenario.ALL.stream()
                        .filter(scenario -> quick.measures(scenario, BASELINE))
                        .map(Scenario::name))
                .containsExactly(Scenario.HOT_KEY.name());
        assertThat(Scenario.ALL.stream().filter(quick::measuresCeiling).map(Scenario::name))
                .containsExactly(Scenario.WIDE_KEYS.name(), Scenario.HOT_KEY.name());
        assertThat(Scenario.ALL).noneMatch(quick::measuresLatency);
    }

    private static BenchmarkOptions options(String... namesAndValues) {
        Properties properties = new Properties();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            properties.setProperty(namesAndValues[i], namesAndValues[i + 1]);
        }
        return BenchmarkOptions.from(properties);
    }
}
