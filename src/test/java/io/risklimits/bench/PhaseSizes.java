package io.risklimits.bench;

import static io.risklimits.bench.DecisionBenchmark.BATCHED;
import static io.risklimits.bench.DecisionBenchmark.CEILING;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * How many events a throughput or ceiling phase gets so that it lasts at least the phase time: those its
 * rate decides in a quarter longer, at the highest rate its scenario and mode ran at in any phase. Until
 * one of its phases has lasted the phase time, that rate is a guess (another scenario's of the same mode),
 * and rates rise from the first round to the next as the machine and the caches settle, so the phase gets
 * six tenths longer instead. A phase that still ends sooner is not counted: it was the calibration, and the
 * phase runs again sized from its rate, for twice the phase time, since a short phase's rate is low by
 * what its first polls and caches take, whatever its length.
 */
final class PhaseSizes {

    // over a rate the scenario and mode reached in a phase of the full phase time
    static final double MARGIN = 1.25;
    // over a guessed rate
    static final double GUESS_MARGIN = 1.6;
    // over the rate of the scenario and mode's own phase that fell short
    static final double SHORT_PHASE_MARGIN = 2.0;
    // the ceiling over end to end assumed before any scenario's ceiling has run: where end to end meets
    // its goal (0.75 of the ceiling or more) the ceiling is at most 1.33 times it, within the guess margin
    private static final double FIRST_CEILING_OVER_END_TO_END = 1.0;
    private static final int ATTEMPTS = 4;
    static final int MAX_EVENTS = 2_000_000;

    private final BenchmarkOptions options;
    // the scenarios and modes that ran a phase that lasted the phase time
    private final Set<String> fullPhaseSeen = new HashSet<>();
    // and those that ran one that fell short
    private final Set<String> shortPhaseSeen = new HashSet<>();
    // the highest rate of each scenario and mode in any phase, and of each mode
    private final Map<String, Double> rateByPhase = new HashMap<>();
    private final Map<String, Double> rateByMode = new HashMap<>();
    private double ceilingOverEndToEnd;

    PhaseSizes(BenchmarkOptions options) {
        this.options = options;
    }

    /** Runs the phase with as many events as it needs to last the phase time, again if it fell short. */
    RunResult.Throughput timed(
            Scenario scenario, String mode, String name, int maxEvents, IntFunction<RunResult.Throughput> phase) {
        String key = scenario.name() + " " + mode;
        double seconds = options.phaseSeconds().toMillis() / 1000.0;
        for (int attempt = 1; ; attempt++) {
            RunResult.Throughput measured = phase.apply(Math.min(maxEvents, events(scenario, mode)));
            rateByPhase.merge(key, measured.decisionsPerSecond(), Math::max);
            rateByMode.merge(mode, measured.decisionsPerSecond(), Math::max);
            if (mode.equals(CEILING)) {
                Double endToEnd = rateByPhase.get(scenario.name() + " " + BATCHED);
                if (endToEnd != null) {
                    ceilingOverEndToEnd = Math.max(ceilingOverEndToEnd, measured.decisionsPerSecond() / endToEnd);
                }
            }
            if (measured.seconds() >= seconds) {
                fullPhaseSeen.add(key);
                return measured;
            }
            shortPhaseSeen.add(key);
            if (attempt == ATTEMPTS) {
                System.out.printf(
                        "Benchmark: %s lasted %.2f s, under the %.0f s of a measured phase, %d times: counted%n",
                        name, measured.seconds(), seconds, attempt);
                return measured;
            }
            System.out.printf(
                    "Benchmark: %s lasted %.2f s (%d events), under the %.0f s of a measured phase: not counted,"
                            + " run again sized from its rate%n",
                    name, measured.seconds(), measured.decisions(), seconds);
        }
    }

    /** The events of the scenario and mode's next phase. */
    int events(Scenario scenario, String mode) {
        String key = scenario.name() + " " + mode;
        double seconds = options.phaseSeconds().toMillis() / 1000.0;
        Double rate = rateByPhase.getOrDefault(key, firstRate(scenario, mode));
        if (rate == null) {
            return firstEvents(mode);
        }
        double margin =
                fullPhaseSeen.contains(key) ? MARGIN : shortPhaseSeen.contains(key) ? SHORT_PHASE_MARGIN : GUESS_MARGIN;
        return sized(rate * seconds * margin);
    }

    private static int sized(double events) {
        return (int) Math.min(MAX_EVENTS, Math.max(1, Math.ceil(events)));
    }

    /**
     * A scenario's first ceiling: its own end-to-end rate, just measured, times the highest ratio of
     * ceiling to end to end seen in another scenario (1 at least), so that its phase is not sized
     * from a faster scenario's ceiling; else the highest rate of the mode.
     */
    private Double firstRate(Scenario scenario, String mode) {
        Double endToEnd = rateByPhase.get(scenario.name() + " " + BATCHED);
        if (mode.equals(CEILING) && endToEnd != null && ceilingOverEndToEnd > 0) {
            return endToEnd * Math.max(FIRST_CEILING_OVER_END_TO_END, ceilingOverEndToEnd);
        }
        return rateByMode.get(mode);
    }

    private int firstEvents(String mode) {
        return switch (mode) {
            case BATCHED -> options.events();
            // the first ceiling of all: the service's own rate is known by then
            case CEILING ->
                sized(rateByMode.getOrDefault(BATCHED, (double) options.events())
                        * FIRST_CEILING_OVER_END_TO_END
                        * options.phaseSeconds().toSeconds()
                        * GUESS_MARGIN);
            default -> options.baselineEvents();
        };
    }
}
