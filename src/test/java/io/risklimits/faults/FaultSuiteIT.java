package io.risklimits.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.util.FileSystemUtils;

/**
 * The fault suite: the service as its own processes (java -jar), killed, frozen and cut off from
 * PostgreSQL and Kafka while events flow, then the contract's invariants checked. The regular test
 * run takes a short version (-Dfaults.scenarios=... picks others, =all runs every scenario);
 * ./mvnw -B verify -Pfaults runs all of them with more events (docs/testing.md, "The fault suite").
 */
class FaultSuiteIT {

    private static final String SHORT_VERSION = "crash-after-commit,zombie,pgbouncer,holds";

    @Test
    void everyInvariantHoldsUnderEveryFault() throws Exception {
        List<FaultScenario> scenarios = selected(System.getProperty("faults.scenarios", SHORT_VERSION));
        int events = Integer.getInteger("faults.events", 600);
        int perSecond = Integer.getInteger("faults.rate", 100);
        Path home = Files.createTempDirectory("risk-limits-faults");
        try (FaultCluster cluster = FaultCluster.start(home)) {
            List<FaultSuiteRunner.ScenarioResult> results =
                    new FaultSuiteRunner(cluster, events, perSecond).run(scenarios);
            assertThat(results)
                    .as("worker logs in " + home.resolve("logs") + "\n" + FaultSuiteRunner.table(results))
                    .allMatch(FaultSuiteRunner.ScenarioResult::passed);
        }
        // kept only when a scenario failed, for the worker logs the assertion points to
        FileSystemUtils.deleteRecursively(home);
    }

    private static List<FaultScenario> selected(String names) {
        List<FaultScenario> all = FaultScenarios.all();
        if (names.equals("all")) {
            return all.stream().filter(FaultSuiteIT::runnableHere).toList();
        }
        Set<String> wanted = Arrays.stream(names.split(",")).map(String::trim).collect(Collectors.toSet());
        List<FaultScenario> chosen = all.stream()
                .filter(scenario -> wanted.contains(scenario.name()))
                .toList();
        assertThat(chosen).as("scenarios named " + names).hasSize(wanted.size());
        return chosen.stream().filter(FaultSuiteIT::runnableHere).toList();
    }

    // PgBouncer comes from Debian's package, which .ci/run installs; elsewhere it may be missing
    private static boolean runnableHere(FaultScenario scenario) {
        if (scenario.throughPgBouncer() && !PgBouncer.installed()) {
            System.out.println("fault suite: skipping " + scenario.name() + ": " + PgBouncer.BINARY + " not installed");
            return false;
        }
        return true;
    }
}
