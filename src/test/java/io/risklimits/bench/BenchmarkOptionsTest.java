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
                .containsExactly(Scenario.UNIFORM.name(), Scenario.REVERSAL_MIX.name());
        assertThat(Scenario.ALL).allMatch(scenario -> quick.measures(scenario, DecisionBenchmark.BATCHED));
    }

    @Test
    void theQuickRunMeasuresTheCeilingOnlyOfTheScenariosWhoseRatioToItIsAGoal() {
        BenchmarkOptions quick = options("bench.quick", "true");

        assertThat(Scenario.ALL.stream().filter(quick::measuresCeiling).map(Scenario::name))
                .containsExactly(Scenario.UNIFORM.name(), Scenario.REVERSAL_MIX.name());
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
