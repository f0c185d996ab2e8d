package io.risklimits.faults;

import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * One fault scenario: the workers it starts (one property map each, on top of the common ones), whether
 * its events include the hold lifecycle (ScenarioLoad), and the faults it injects while the events flow.
 */
record FaultScenario(
        String name, List<Map<String, String>> workers, boolean throughPgBouncer, boolean holds, Fault fault) {

    FaultScenario(String name, List<Map<String, String>> workers, boolean throughPgBouncer, Fault fault) {
        this(name, workers, throughPgBouncer, false, fault);
    }

    /** What was done to the system, and any check only this scenario can make. */
    record Injected(String description, List<Invariants.Check> checks) {

        static Injected of(String description) {
            return new Injected(description, List.of());
        }
    }

    @FunctionalInterface
    interface Fault {
        Injected inject(ScenarioRun run, List<WorkerProcess> workers) throws Exception;
    }

    static FaultScenario of(String name, int workers, Fault fault) {
        return new FaultScenario(name, Collections.nCopies(workers, Map.of()), false, fault);
    }
}
