package io.risklimits.faults;

import io.risklimits.support.TestKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Runs fault scenarios against worker processes, checks the invariants after each, and prints the
 * table: scenario, events, faults injected, invariant results. Returns the results; the caller fails
 * the build when any check failed.
 */
final class FaultSuiteRunner {

    record ScenarioResult(String name, int events, String faults, List<Invariants.Check> checks, Duration took) {

        boolean passed() {
            return checks.stream().allMatch(Invariants.Check::passed);
        }
    }

    private final FaultCluster cluster;
    private final int events;
    private final int perSecond;

    FaultSuiteRunner(FaultCluster cluster, int events, int perSecond) {
        this.cluster = cluster;
        this.events = events;
        this.perSecond = perSecond;
    }

    List<ScenarioResult> run(List<FaultScenario> scenarios) throws Exception {
        List<ScenarioResult> results = new ArrayList<>();
        for (FaultScenario scenario : scenarios) {
            ScenarioResult result = run(scenario);
            System.out.println("fault suite: " + result.name() + (result.passed() ? " passed" : " FAILED"));
            results.add(result);
        }
        String table = table(results);
        System.out.println(table);
        Path report = Path.of("target", "fault-suite", "results.md");
        Files.createDirectories(report.getParent());
        Files.writeString(report, table);
        return results;
    }

    private ScenarioResult run(FaultScenario scenario) throws Exception {
        long started = System.nanoTime();
        try (ScenarioRun run = new ScenarioRun(cluster, scenario.name(), events, scenario.holds())) {
            if (scenario.throughPgBouncer()) {
                run.connectThrough(cluster.pgBouncer().jdbcUrl());
            }
            List<WorkerProcess> workers = new ArrayList<>();
            for (int i = 0; i < scenario.workers().size(); i++) {
                workers.add(
                        run.startWorker("worker-" + (i + 1), scenario.workers().get(i)));
            }
            workers.forEach(WorkerProcess::awaitReady);
            TestKafka.awaitLeaders(cluster.bootstrapServers(), List.of(run.transactions()));
            CompletableFuture<Void> sending = run.startLoad(perSecond);
            FaultScenario.Injected injected = scenario.fault().inject(run, workers);
            sending.get(5, TimeUnit.MINUTES);

            Invariants invariants = new Invariants(cluster.jdbc(), cluster.bootstrapServers(), run.channel, run.load);
            try {
                run.awaitAllDecided(invariants, Duration.ofMinutes(3));
            } catch (ConditionTimeoutException notAllDecided) {
                // the checks below say what is missing
            }
            List<Invariants.Check> checks = new ArrayList<>(List.of(
                    invariants.oneAuditRowEach(),
                    invariants.messagesAgree(run.decisions()),
                    invariants.noWindowExceeded(run.limits),
                    invariants.noAccountWindowExceeded(run.accountLimit),
                    invariants.bucketsEqualApprovals(),
                    invariants.noOriginalReleasedBeyondItsAmount(),
                    invariants.ledgersAgreeWithTheAuditLog(),
                    invariants.holdsSettled(),
                    invariants.runningTotalsArePrefixSums(),
                    invariants.deadLettersPresent(run.deadLetters()),
                    eventually(invariants::nothingLeftBehind),
                    eventually(run::backlogDeleted)));
            checks.addAll(injected.checks());
            return new ScenarioResult(
                    scenario.name(),
                    run.load.records(),
                    injected.description(),
                    checks,
                    Duration.ofNanos(System.nanoTime() - started));
        }
    }

    /** A check that may take a moment to come true (a lock released, a command answered). */
    private static Invariants.Check eventually(java.util.function.Supplier<Invariants.Check> check) {
        Invariants.Check[] last = new Invariants.Check[1];
        try {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> (last[0] = check.get()).passed());
        } catch (ConditionTimeoutException stillFailing) {
            // reported as failed
        }
        return last[0];
    }

    static String table(List<ScenarioResult> results) {
        StringBuilder table = new StringBuilder();
        table.append("| scenario | events | faults injected | invariants | took |\n");
        table.append("|---|---|---|---|---|\n");
        for (ScenarioResult result : results) {
            long passed =
                    result.checks().stream().filter(Invariants.Check::passed).count();
            table.append("| ")
                    .append(result.name())
                    .append(" | ")
                    .append(result.events())
                    .append(" | ")
                    .append(result.faults())
                    .append(" | ")
                    .append(passed)
                    .append('/')
                    .append(result.checks().size())
                    .append(result.passed() ? " pass" : " FAIL")
                    .append(" | ")
                    .append(result.took().toSeconds())
                    .append(" s |\n");
        }
        table.append("\nChecks:\n");
        for (ScenarioResult result : results) {
            for (Invariants.Check check : result.checks()) {
                table.append("- ")
                        .append(result.name())
                        .append(": ")
                        .append(check.passed() ? "pass" : "FAIL")
                        .append(" ")
                        .append(check.name())
                        .append(" (")
                        .append(check.detail())
                        .append(")\n");
            }
        }
        return table.toString();
    }
}
