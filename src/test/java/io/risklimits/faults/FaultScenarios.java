package io.risklimits.faults;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;

/** The fault suite's scenarios, each injecting its faults while a scenario's events flow. */
final class FaultScenarios {

    private static final Duration SETTLE = Duration.ofSeconds(3);

    private FaultScenarios() {}

    static List<FaultScenario> all() {
        return List.of(
                crashAt("before-commit"),
                crashAt("after-commit"),
                crashAt("after-send"),
                FaultScenario.of("postgres-restart", 2, (run, workers) -> {
                    Thread.sleep(SETTLE.toMillis());
                    run.cluster.stopPostgres();
                    Invariants.Check down = HealthChecks.reports(workers.get(0), "db", "DOWN", "PostgreSQL stopped");
                    Thread.sleep(5000);
                    run.cluster.resumePostgres();
                    Invariants.Check up = HealthChecks.reports(workers.get(0), "db", "UP", "PostgreSQL back");
                    return new FaultScenario.Injected("PostgreSQL stopped for 5 s or more", List.of(down, up));
                }),
                FaultScenario.of("terminated-backends", 2, (run, workers) -> {
                    int terminated = 0;
                    for (int round = 0; round < 3; round++) {
                        Thread.sleep(2000);
                        terminated += run.cluster.terminateBackends();
                    }
                    return FaultScenario.Injected.of(terminated + " backends terminated in 3 rounds");
                }),
                FaultScenario.of("kafka-restart", 2, (run, workers) -> {
                    Thread.sleep(SETTLE.toMillis());
                    run.cluster.stopKafka();
                    Invariants.Check down = HealthChecks.reports(workers.get(0), "kafka", "DOWN", "broker stopped");
                    Thread.sleep(5000);
                    run.cluster.resumeKafka();
                    Invariants.Check up = HealthChecks.reports(workers.get(0), "kafka", "UP", "broker back");
                    return new FaultScenario.Injected("broker stopped for 5 s or more", List.of(down, up));
                }),
                FaultScenario.of("rebalances", 1, FaultScenarios::joinAndLeave),
                FaultScenario.of("zombie", 2, (run, workers) -> {
                    Thread.sleep(SETTLE.toMillis());
                    workers.get(0).freeze();
                    Thread.sleep(15_000);
                    workers.get(0).thaw();
                    return FaultScenario.Injected.of(
                            "1 worker frozen (SIGSTOP) 15 s > session timeout 6 s, then resumed beside its successor");
                }),
                new FaultScenario(
                        "poll-stall",
                        List.of(Map.of("spring.kafka.consumer.properties.max.poll.interval.ms", "8000"), Map.of()),
                        false,
                        FaultScenarios::holdAHotKeysLock),
                FaultScenario.of("decisions-unwritable", 2, FaultScenarios::decisionsUnwritable),
                new FaultScenario("pgbouncer", List.of(Map.of(), Map.of()), true, FaultScenarios::behindPgBouncer),
                new FaultScenario(
                        "holds",
                        List.of(
                                Map.of(
                                        "risk.failpoints.crash-at",
                                        "after-commit",
                                        "risk.failpoints.crash-on-poll",
                                        "4"),
                                Map.of()),
                        false,
                        true,
                        FaultScenarios::crashAndRebalanceWhileHoldsExpire));
    }

    private static FaultScenario crashAt(String point) {
        return new FaultScenario(
                "crash-" + point,
                List.of(Map.of("risk.failpoints.crash-at", point, "risk.failpoints.crash-on-poll", "4"), Map.of()),
                false,
                (run, workers) -> {
                    int status = workers.get(0).awaitExit(Duration.ofSeconds(120));
                    run.startWorker("replacement", Map.of()).awaitReady();
                    return new FaultScenario.Injected(
                            "halted at " + point + " (exit " + status + "), replacement started",
                            List.of(new Invariants.Check(
                                    "the worker died at the failpoint", status == 137, "exit status " + status)));
                });
    }

    /**
     * With the hold lifecycle in the stream: a worker halts after a commit on its 4th poll, and while the
     * short holds come due a replacement and a joiner start at once (rebalances while the sweeps run), then
     * the joiner is SIGKILLed (another).
     */
    private static FaultScenario.Injected crashAndRebalanceWhileHoldsExpire(
            ScenarioRun run, List<WorkerProcess> workers) throws Exception {
        int status = workers.get(0).awaitExit(Duration.ofSeconds(120));
        WorkerProcess replacement = run.startWorker("replacement", Map.of());
        WorkerProcess joiner = run.startWorker("joiner", Map.of());
        replacement.awaitReady();
        joiner.awaitReady().kill9();
        return new FaultScenario.Injected(
                "halted at after-commit (exit " + status + "), replacement and a joiner started, joiner SIGKILLed",
                List.of(new Invariants.Check(
                        "the worker died at the failpoint", status == 137, "exit status " + status)));
    }

    private static FaultScenario.Injected joinAndLeave(ScenarioRun run, List<WorkerProcess> workers) throws Exception {
        WorkerProcess second = run.startWorker("joiner-1", Map.of()).awaitReady();
        WorkerProcess third = run.startWorker("joiner-2", Map.of()).awaitReady();
        workers.get(0).terminate();
        second.kill9();
        run.startWorker("joiner-3", Map.of()).awaitReady();
        third.terminate();
        return FaultScenario.Injected.of("3 joined, 2 left by SIGTERM, 1 by SIGKILL");
    }

    /** Holds a busy key's advisory lock for twice max.poll.interval.ms, as a stuck transaction would. */
    private static FaultScenario.Injected holdAHotKeysLock(ScenarioRun run, List<WorkerProcess> workers)
            throws Exception {
        Thread.sleep(SETTLE.toMillis());
        UUID entity = run.load.entities().get(0);
        try (Connection connection = run.cluster.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement lock =
                    connection.prepareStatement("SELECT pg_advisory_xact_lock(risk_business_key_hash(?, ?, 'OUT'))")) {
                lock.setObject(1, entity);
                lock.setString(2, run.channel);
                lock.execute();
            }
            Thread.sleep(16_000);
            connection.commit();
        }
        return FaultScenario.Injected.of("a key's lock held 16 s = 2 x max.poll.interval.ms");
    }

    /**
     * The decisions topic refuses every decision (max.message.bytes below a decision's size) for 40 s:
     * the deciders must hold their offsets, neither skipping nor dead-lettering events whose decision
     * is stored but not published, until the topic takes writes again.
     */
    private static FaultScenario.Injected decisionsUnwritable(ScenarioRun run, List<WorkerProcess> workers)
            throws Exception {
        Thread.sleep(SETTLE.toMillis());
        try (Admin admin = run.cluster.admin()) {
            setTopicConfig(admin, run.decisions(), TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "64");
            Thread.sleep(5000);
            long before = committedOffsets(admin, run.deciderGroup());
            Thread.sleep(35_000);
            long after = committedOffsets(admin, run.deciderGroup());
            admin.incrementalAlterConfigs(Map.of(
                            new ConfigResource(ConfigResource.Type.TOPIC, run.decisions()),
                            List.of(new AlterConfigOp(
                                    new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, ""),
                                    AlterConfigOp.OpType.DELETE))))
                    .all()
                    .get();
            return new FaultScenario.Injected(
                    "decisions topic refused every write for 40 s",
                    List.of(new Invariants.Check(
                            "offsets held while decisions could not be written",
                            after == before,
                            "committed offsets " + before + " then " + after)));
        }
    }

    private static void setTopicConfig(Admin admin, String topic, String name, String value) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        admin.incrementalAlterConfigs(Map.of(
                        resource, List.of(new AlterConfigOp(new ConfigEntry(name, value), AlterConfigOp.OpType.SET))))
                .all()
                .get();
    }

    private static long committedOffsets(Admin admin, String group) throws Exception {
        Collection<OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get()
                .values();
        return offsets.stream().mapToLong(OffsetAndMetadata::offset).sum();
    }

    private static FaultScenario.Injected behindPgBouncer(ScenarioRun run, List<WorkerProcess> workers)
            throws Exception {
        Thread.sleep(SETTLE.toMillis());
        int terminated = run.cluster.terminateBackends();
        workers.get(0).kill9();
        run.startWorker("replacement", Map.of()).awaitReady();
        List<String> faults = new ArrayList<>();
        faults.add("workers through PgBouncer (transaction pooling)");
        faults.add(terminated + " server connections terminated");
        faults.add("1 worker SIGKILLed and replaced");
        return FaultScenario.Injected.of(String.join(", ", faults));
    }
}
