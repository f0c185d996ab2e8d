package io.risklimits.bench;

import static io.risklimits.bench.DecisionBenchmark.BATCHED;
import static io.risklimits.bench.DecisionBenchmark.CEILING;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class PhaseSizesTest {

    private final BenchmarkOptions options = BenchmarkOptions.from(properties("bench.phase-seconds", "5"));
    private final PhaseSizes sizes = new PhaseSizes(options);

    @Test
    void aScenariosFirstPhaseSizedFromAnotherScenariosRateGetsTheGuessMargin() {
        run(Scenario.UNIFORM, 10_000, 6.0);

        assertThat(sizes.events(Scenario.ALL_SCOPES, BATCHED))
                .as("10,000/s for 5 s, and six tenths more")
                .isEqualTo(80_000);
    }

    @Test
    void aPhaseSizedFromItsOwnFullPhaseGetsTheNarrowerMargin() {
        run(Scenario.UNIFORM, 10_000, 6.0);

        assertThat(sizes.events(Scenario.UNIFORM, BATCHED))
                .as("10,000/s for 5 s, and a quarter more")
                .isEqualTo(62_500);
    }

    @Test
    void aPhaseThatFellShortRunsAgainSizedFromItsRateForTwiceThePhaseTime() {
        assertThat(eventsOfEachAttempt(12_000, 2.0, 6.0))
                .as("the first phase's events, then 12,000/s for twice 5 s")
                .containsExactly(options.events(), 120_000);
    }

    @Test
    void aScenarioThatFellShortBeforeItsFullPhaseGetsTheNarrowerMarginAfterIt() {
        eventsOfEachAttempt(12_000, 2.0, 6.0);

        assertThat(sizes.events(Scenario.UNIFORM, BATCHED))
                .as("12,000/s for 5 s, and a quarter more")
                .isEqualTo(75_000);
    }

    @Test
    void aPhaseThatFellShortAfterAFullOneRunsAgainSizedFromItsFasterRate() {
        run(Scenario.UNIFORM, 10_000, 6.0);

        assertThat(eventsOfEachAttempt(20_000, 4.0, 6.0))
                .as("10,000/s for 5 s and a quarter more, then 20,000/s for 5 s and a quarter more")
                .containsExactly(62_500, 125_000);
    }

    @Test
    void theFirstCeilingOfAllIsSizedFromTheHighestEndToEndRateWithTheGuessMargin() {
        run(Scenario.UNIFORM, 10_000, 6.0);

        assertThat(sizes.events(Scenario.UNIFORM, CEILING))
                .as("10,000/s for 5 s, and six tenths more")
                .isEqualTo(80_000);
    }

    @Test
    void aScenariosFirstCeilingIsSizedFromItsOwnEndToEndRateTimesTheCeilingRatioSeen() {
        run(Scenario.UNIFORM, 10_000, 6.0);
        sizes.timed(Scenario.UNIFORM, CEILING, "ceiling", PhaseSizes.MAX_EVENTS, events -> phase(15_000, 6.0));
        run(Scenario.REVERSAL_MIX, 8_000, 6.0);

        assertThat(sizes.events(Scenario.REVERSAL_MIX, CEILING))
                .as("8,000/s times 1.5 for 5 s, and six tenths more")
                .isEqualTo(96_000);
    }

    // the events uniform 30 d's phase was given at each attempt, each running at the rate for these seconds
    private List<Integer> eventsOfEachAttempt(double rate, Double... secondsOfEachAttempt) {
        List<Integer> asked = new ArrayList<>();
        List<Double> seconds = new ArrayList<>(List.of(secondsOfEachAttempt));
        sizes.timed(Scenario.UNIFORM, BATCHED, "uniform", PhaseSizes.MAX_EVENTS, events -> {
            asked.add(events);
            return phase(rate, seconds.remove(0));
        });
        return asked;
    }

    private void run(Scenario scenario, double rate, double seconds) {
        sizes.timed(scenario, BATCHED, scenario.name(), PhaseSizes.MAX_EVENTS, events -> phase(rate, seconds));
    }

    private static RunResult.Throughput phase(double rate, double seconds) {
        return new RunResult.Throughput(
                (int) (rate * seconds), rate, (long) (seconds * 1000), rate, 1.0, 500, null, null);
    }

    private static Properties properties(String... namesAndValues) {
        Properties properties = new Properties();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            properties.setProperty(namesAndValues[i], namesAndValues[i + 1]);
        }
        return properties;
    }
}
