package io.risklimits.bench;

import io.risklimits.support.TestInfrastructure;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * End-to-end decisions per second and latency of the real service, per decider mode and scenario,
 * on the test infrastructure. Not part of the test suite (it is neither *Test nor *IT): run it with
 * {@code ./mvnw -B verify -Pbenchmark}; options are -Dbench.* (see {@link BenchmarkOptions}).
 *
 * <p>Each mode runs as one service, on topics of its own, started and warmed up once (until the JIT
 * compiler has settled), then kept running through every scenario, as a long-running service would be.
 * Per scenario and mode:
 * <ol>
 *   <li>throughput: with the service paused, the events are produced; then it resumes. Decisions per
 *       second is counted from the first decision appended to the last (the figure from the resume
 *       request on is reported too). Measured several times, in rounds that take every scenario and
 *       mode in turn; the median counts;
 *   <li>latency: events at a fixed rate of half that throughput, after a settling stretch at that
 *       rate that is not counted; latency = decision appended - event appended (both LogAppendTime),
 *       and the stricter decision appended - event scheduled beside it.
 * </ol>
 * Between runs the buckets a run wrote are deleted, so every run starts from the same history.
 */
class DecisionBenchmark {

    private static final int WARMUP_KEYS = 1_000;
    // the events of a poll, as the decider takes them in a throughput phase
    private static final int EXPLAINED_BATCH = 500;

    static final String BATCHED = "batched";
    // not a mode of the service: the database's ceiling, measured in the batched service's context
    static final String CEILING = "ceiling";

    private final BenchmarkOptions options = BenchmarkOptions.fromSystemProperties();
    private final TestInfrastructure infrastructure = TestInfrastructure.get();
    private final BenchmarkDatabase database = new BenchmarkDatabase(infrastructure.dataSource());

    @Test
    void decisionsPerSecondAndLatency() {
        long startedNanos = System.nanoTime();
        System.out.println("Benchmark: host writeback " + HostWriteback.describe());
        database.setSynchronousCommit(options.synchronousCommit());
        database.insertChannelLimits();
        database.insertFxRates();
        database.autovacuumRequestLogAsIfFull();
        List<Scenario> scenarios =
                options.scenarios().stream().map(Scenario::named).toList();
        BenchmarkHistory histories = new BenchmarkHistory(options, database);
        // nothing else runs yet: a bulk load, the archiver's indexes built once after it
        Map<String, BenchmarkKeys> keysBySet =
                new BucketTablesBulkLoad(infrastructure.dataSource()).run(() -> histories.load(scenarios));
        BenchmarkKeys warmupKeys = histories.load(BenchmarkKeys.random(WARMUP_KEYS), 1);
        histories.writeAndDeleteOldDecisions(keysBySet.values());
        database.settle();

        // the buffers the loads left unused are touched while the services warm up, which measures nothing;
        // -Dbench.touch-buffers=false: measure a server fresh from start instead
        CompletableFuture<String> touchedBuffers =
                Boolean.parseBoolean(System.getProperty("bench.touch-buffers", "true"))
                        ? CompletableFuture.supplyAsync(
                                () -> new SharedBuffersTouch(infrastructure.dataSource()).touchUnusedBuffers())
                        : CompletableFuture.completedFuture("not touched: -Dbench.touch-buffers=false");
        List<RunResult> runs = new ArrayList<>();
        try (BenchmarkKafka kafka = new BenchmarkKafka(infrastructure.bootstrapServers(), options.partitions());
                LoadDriver driver = new LoadDriver(infrastructure.bootstrapServers());
                ServicesUnderTest services = new ServicesUnderTest()) {
            DecisionLog decisions = new DecisionLog(infrastructure.bootstrapServers());
            BenchmarkRunner runner = new BenchmarkRunner(options, kafka, driver, decisions, database);
            for (String mode : options.modes()) {
                ServiceUnderTest service = services.add(ServiceUnderTest.start(mode, kafka, runner.overrides()));
                // the JVM runs the service too: its code is compiled hot before anything is measured
                int events = mode.equals(BATCHED) ? options.events() : options.baselineEvents();
                runner.warmUp(service, warmupKeys, Math.max(1_000, events / 5));
                service.noteDeciderThreads();
                System.out.printf(
                        "Benchmark: %s decider threads: %d (consumers, publisher, heartbeat)%n",
                        mode, service.deciderThreadCount());
                resetAfter(warmupKeys);
            }
            Map<BenchmarkKeys, String> history = new HashMap<>();
            keysBySet.values().forEach(keys -> history.put(keys, database.bucketsFingerprint(keys)));
            // a wide key set's keys are first sights, as a card portfolio's mostly are: not primed
            Runnable rememberWindowStarts = () -> services.batched()
                    .ifPresent(service -> keysBySet.entrySet().stream()
                            .filter(set -> !set.getKey().equals(Scenario.WIDE_KEYS.keySet()))
                            .forEach(set -> primeWindowStarts(runner, service, set.getValue(), Scenario.UNIFORM)));
            System.out.println("Benchmark: shared buffers " + touchedBuffers.join());
            rememberWindowStarts.run();
            HourTurns hourTurns = new HourTurns(rememberWindowStarts);
            // rounds of one throughput phase per scenario and mode, so that a machine that slows down for
            // a while (a shared VM does) slows every scenario and mode alike rather than one of them.
            // Within a round one mode's scenarios run back to back, the service's each followed at once
            // by the database's ceiling on the same events (seconds apart); a scenario compared with
            // uniform 30 d runs a minute or two from it, so every other round runs the scenarios the other
            // way round (Scenario.inRound): a drift within a round does not favour the same side of such a
            // ratio in every round.
            Map<Phases, List<RunResult.Throughput>> measured = new HashMap<>();
            PhaseSizes sizes = new PhaseSizes(options);
            Optional<FirstSights> firstSights = Optional.ofNullable(keysBySet.get(Scenario.WIDE_KEYS.keySet()))
                    .map(FirstSights::new);
            for (int round = 1; round <= options.throughputRepeats(); round++) {
                for (ServiceUnderTest service : services.all()) {
                    for (Scenario scenario : Scenario.inRound(scenarios, round)) {
                        if (!options.measures(scenario, service.mode())) {
                            if (round == 1 && options.leavesOutBaseline(scenario, service.mode())) {
                                System.out.printf(
                                        "Benchmark: %s %s end to end not measured in any round: bench.baseline-scenarios"
                                                + " is %s%s%n",
                                        scenario.name(), service.mode(), options.baselineScenarios(), quickDefault());
                            }
                            continue;
                        }
                        BenchmarkKeys keys = keysBySet.get(scenario.keySet());
                        boolean batched = service.mode().equals(BATCHED);
                        // a phase of a wide key set sees each key at most once
                        int maxEvents = scenario.wideKeys() ? keys.size() : PhaseSizes.MAX_EVENTS;
                        String endToEndName = scenario.name() + " " + service.mode() + " end to end";
                        RunResult.Throughput endToEnd =
                                sizes.timed(scenario, service.mode(), endToEndName, maxEvents, events -> {
                                    hourTurns.beforePhase(endToEndName);
                                    if (batched) {
                                        checkHistory(keys, history, scenario.name() + " end to end");
                                    }
                                    makeFirstSightsAgain(firstSights, scenario, service);
                                    RunResult.Throughput phase =
                                            runner.throughputPhase(scenario, service, keys, events);
                                    resetAfter(keys);
                                    return phase;
                                });
                        measured.computeIfAbsent(new Phases(scenario, service.mode()), phases -> new ArrayList<>())
                                .add(endToEnd);
                        if (batched && !options.measuresCeiling(scenario)) {
                            if (round == 1) {
                                System.out.printf(
                                        "Benchmark: %s ceiling not measured in any round, nor its ratio to end to end:"
                                                + " bench.ceiling-scenarios is %s%s%n",
                                        scenario.name(), options.ceilingScenarios(), quickDefault());
                            }
                        } else if (batched) {
                            int batchSize = (int) Math.max(1, Math.round(endToEnd.eventsPerTransaction()));
                            RunResult.Throughput ceiling =
                                    sizes.timed(scenario, CEILING, scenario.name() + " ceiling", maxEvents, events -> {
                                        hourTurns.beforePhase(scenario.name() + " ceiling");
                                        checkHistory(keys, history, scenario.name() + " ceiling");
                                        makeFirstSightsAgain(firstSights, scenario, service);
                                        RunResult.Throughput phase =
                                                runner.ceilingPhase(scenario, service, keys, events, batchSize);
                                        resetAfter(keys);
                                        return phase;
                                    });
                            measured.computeIfAbsent(new Phases(scenario, CEILING), phases -> new ArrayList<>())
                                    .add(ceiling);
                        }
                    }
                }
            }
            if (options.explainWideKeys()) {
                services.batched()
                        .ifPresent(service -> firstSights.ifPresent(sights -> UsageReadPlan.print(
                                service,
                                infrastructure.dataSource(),
                                database,
                                sights,
                                keysBySet.get(Scenario.WIDE_KEYS.keySet()),
                                EXPLAINED_BATCH)));
                database.settle();
            }
            for (Scenario scenario : scenarios) {
                BenchmarkKeys keys = keysBySet.get(scenario.keySet());
                for (ServiceUnderTest service : services.all()) {
                    if (!options.measures(scenario, service.mode())) {
                        continue;
                    }
                    boolean latencyMeasured = options.measuresLatency(scenario);
                    RunResult run = runner.latencyPhase(
                            scenario,
                            service,
                            keys,
                            measured.get(new Phases(scenario, service.mode())),
                            service.mode().equals(BATCHED)
                                    ? measured.getOrDefault(new Phases(scenario, CEILING), List.of())
                                    : List.of(),
                            latencyMeasured,
                            () -> makeFirstSightsAgain(firstSights, scenario, service));
                    if (!latencyMeasured) {
                        System.out.printf(
                                "Benchmark: %s %s: %.0f decisions/s; latency phase and its settling stretch not"
                                        + " measured: bench.latency-scenarios is %s%s%n",
                                scenario.name(),
                                service.mode(),
                                run.throughput().decisionsPerSecond(),
                                options.latencyScenarios(),
                                quickDefault());
                        runs.add(run);
                        continue;
                    }
                    System.out.printf(
                            "Benchmark: %s %s: %.0f decisions/s; at %.0f events/s p50 %d ms, p99 %d ms,"
                                    + " p999 %d ms (from scheduled: p50 %d ms, p99 %d ms, p999 %d ms)%n",
                            scenario.name(),
                            service.mode(),
                            run.throughput().decisionsPerSecond(),
                            run.latency().targetEventsPerSecond(),
                            run.latency().p50Millis(),
                            run.latency().p99Millis(),
                            run.latency().p999Millis(),
                            run.latency().fromEventScheduled().p50Millis(),
                            run.latency().fromEventScheduled().p99Millis(),
                            run.latency().fromEventScheduled().p999Millis());
                    runs.add(run);
                    resetAfter(keys);
                }
            }
        }
        report(runs, (System.nanoTime() - startedNanos) / 1e9);
    }

    private String quickDefault() {
        return options.quick() ? " (the quick run's default)" : "";
    }

    /**
     * A running service has decided each of its active keys within the hour, so it remembers their window
     * starts ({@code risk.decider.window-starts-cache-keys}). One pass of the ceiling over the key set, not
     * measured, makes that so before the first measured phase, for the end-to-end phases and the ceiling
     * alike: otherwise whichever ran first would read every key's window starts in full.
     */
    private void primeWindowStarts(
            BenchmarkRunner runner, ServiceUnderTest service, BenchmarkKeys keys, Scenario scenario) {
        long startedNanos = System.nanoTime();
        DatabaseCeiling ceiling = new DatabaseCeiling(service, options.partitions());
        EventStream stream = new EventStream(scenario, keys, options.seed());
        service.pause();
        ceiling.decide(ceiling.prepare(stream.next(Math.max(options.events(), 5 * keys.size())), 500));
        service.resume();
        resetAfter(keys);
        System.out.printf(
                "Benchmark: window starts of %d keys remembered for the hour in %.1f s (not measured)%n",
                keys.size(), (System.nanoTime() - startedNanos) / 1e9);
    }

    /** The end-to-end phase and the ceiling compared must start from the same buckets. */
    private void checkHistory(BenchmarkKeys keys, Map<BenchmarkKeys, String> history, String phase) {
        String now = database.bucketsFingerprint(keys);
        if (!now.equals(history.get(keys))) {
            throw new IllegalStateException("Before the " + phase + " phase the buckets are not the history loaded: "
                    + now + " instead of " + history.get(keys));
        }
    }

    /** Before a phase of the wide key set: its keys are first sights again (FirstSights); others as they are. */
    private void makeFirstSightsAgain(Optional<FirstSights> firstSights, Scenario scenario, ServiceUnderTest service) {
        if (scenario.wideKeys()) {
            firstSights.orElseThrow().restore(service, database);
        }
    }

    // the decisions and their hold ledgers first: a hold sweep after them finds no hold of the run to give
    // back to its buckets
    private void resetAfter(BenchmarkKeys keys) {
        database.resetRunDecisions();
        database.resetRunBuckets(keys);
        database.settle();
    }

    private void report(List<RunResult> runs, double seconds) {
        String server = database.describeServer();
        Map<String, Object> environment = BenchmarkReport.map(
                "finished_at", Instant.now().toString(),
                "available_processors", Runtime.getRuntime().availableProcessors(),
                "java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
                "os", System.getProperty("os.name") + " " + System.getProperty("os.arch"),
                "infrastructure", infrastructure.description(),
                "database", server,
                "host_writeback", HostWriteback.describe(),
                "duration_seconds", Math.round(seconds));
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("quick", options.quick());
        settings.put("events", options.events());
        settings.put("baseline_events", options.baselineEvents());
        settings.put("phase_seconds", options.phaseSeconds().toSeconds());
        settings.put("throughput_repeats", options.throughputRepeats());
        settings.put("keys", options.keys());
        settings.put("wide_keys", options.wideKeys());
        settings.put("wide_baseline", options.wideBaseline());
        settings.put("explain_wide_keys", options.explainWideKeys());
        settings.put("old_decisions_per_key", options.oldDecisionsPerKey());
        settings.put("modes", options.modes());
        settings.put("scenarios", options.scenarios());
        settings.put("baseline_scenarios", options.baselineScenarios());
        settings.put("ceiling_scenarios", options.ceilingScenarios());
        settings.put("latency_scenarios", options.latencyScenarios());
        settings.put("concurrency", options.concurrency());
        settings.put("partitions", options.partitions());
        settings.put("latency_load_share", options.latencyLoadShare());
        settings.put("latency_rate", options.latencyRate().orElse(null));
        settings.put("latency_seconds", options.latencyDuration().toSeconds());
        settings.put("latency_settle_seconds", options.latencySettleDuration().toSeconds());
        settings.put("warm_up_limit_seconds", options.warmUpLimit().toSeconds());
        settings.put("synchronous_commit", options.synchronousCommit());
        settings.put("seed", options.seed());
        BenchmarkReport report = BenchmarkReport.of(environment, settings, options.modes(), runs);

        System.out.println();
        System.out.print(report.table());
        ResultsWriter.write(report, options.resultsFile());
        ResultsWriter.write(BenchmarkSummary.of(report, options.modes().get(0), BATCHED), options.summaryFile());
        String subtitle = String.format(
                "phases of %d s or more, %d keys, concurrency %d, %d partitions; %d cores, %s",
                options.phaseSeconds().toSeconds(),
                options.keys(),
                options.concurrency(),
                options.partitions(),
                Runtime.getRuntime().availableProcessors(),
                server);
        ResultsWriter.write(options.chartFile(), SvgChart.render(report, subtitle));
        System.out.printf(
                "Benchmark: results in %s, summary in %s, chart in %s; %.0f s in all%n",
                options.resultsFile(), options.summaryFile(), options.chartFile(), seconds);
    }

    /** The throughput phases of one mode in one scenario. */
    private record Phases(Scenario scenario, String mode) {}

    /** The services of all modes, closed together. */
    private static final class ServicesUnderTest implements AutoCloseable {

        private final List<ServiceUnderTest> services = new ArrayList<>();

        ServiceUnderTest add(ServiceUnderTest service) {
            services.add(service);
            return service;
        }

        List<ServiceUnderTest> all() {
            return services;
        }

        Optional<ServiceUnderTest> batched() {
            return services.stream()
                    .filter(service -> service.mode().equals(BATCHED))
                    .findFirst();
        }

        @Override
        public void close() {
            services.forEach(ServiceUnderTest::close);
        }
    }
}
