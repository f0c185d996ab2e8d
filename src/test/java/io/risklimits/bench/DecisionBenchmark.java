package io.risklimits.bench;

import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.common.TopicPartition;
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

    // a warm-up round whose JIT compiling took less than this share of one core ends the warm-up
    private static final double SETTLED_JIT_CORES = 0.05;
    private static final int WARM_UP_PACED_SECONDS = 5;
    // the batched service's warm-up streams: every decision path a measured scenario takes (reversals,
    // holds with their captures, increments and expiries, conversions, account scopes) is compiled before
    // its first measured phase
    private static final List<Scenario> WARM_UP_SCENARIOS =
            List.of(Scenario.REVERSAL_MIX, Scenario.HOLDS_MIX, Scenario.FX_MIX, Scenario.ALL_SCOPES);

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
        Map<String, BenchmarkKeys> keysBySet = loadHistory(scenarios);
        BenchmarkKeys warmupKeys = load(BenchmarkKeys.random(WARMUP_KEYS), 1);
        writeAndDeleteOldDecisions(keysBySet.values());
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
                                    if (scenario.wideKeys()) {
                                        firstSights.orElseThrow().restore(service, database);
                                    }
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
                                        if (scenario.wideKeys()) {
                                            firstSights.orElseThrow().restore(service, database);
                                        }
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
                            latencyMeasured);
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
     * One key set per history depth, and the wide key set, each loaded once; runs share it and are reset
     * in between.
     */
    private Map<String, BenchmarkKeys> loadHistory(List<Scenario> scenarios) {
        Map<String, BenchmarkKeys> keysBySet = new HashMap<>();
        for (Scenario scenario : scenarios) {
            keysBySet.computeIfAbsent(
                    scenario.keySet(),
                    set -> scenario.wideKeys()
                            ? loadWide(BenchmarkKeys.random(options.wideKeys()))
                            : load(BenchmarkKeys.random(options.keys()), scenario.historyDays()));
            if (scenario.hasHotKey()) {
                database.raiseLimitsOf(keysBySet.get(scenario.keySet()).entityId(0));
            }
            if (scenario.accounts() > 0) {
                loadAccountHistory(scenario, keysBySet.get(scenario.keySet()));
            }
        }
        return keysBySet;
    }

    // the scenario's accounts' history at both account scopes, added up from their keys' buckets
    private void loadAccountHistory(Scenario scenario, BenchmarkKeys keys) {
        long startedNanos = System.nanoTime();
        List<UUID> accounts =
                IntStream.range(0, keys.size()).mapToObj(scenario::accountOf).toList();
        // both from the key buckets, on two connections at once
        CompletableFuture<Long> accountRows =
                CompletableFuture.supplyAsync(() -> database.loadScopeHistory("account", keys, accounts, false));
        long rows = database.loadScopeHistory("account_channel", keys, accounts, true) + accountRows.join();
        database.addAccountLimits();
        System.out.printf(
                "Benchmark: %s: %d accounts' history: %d buckets in %.1f s%n",
                scenario.name(), scenario.accounts(), rows, (System.nanoTime() - startedNanos) / 1e9);
    }

    // the key buckets and the entity scope's history on two connections at once: one statement each
    private BenchmarkKeys loadWide(BenchmarkKeys keys) {
        long startedNanos = System.nanoTime();
        CompletableFuture<Long> entityRows = CompletableFuture.supplyAsync(() -> database.loadWideEntityHistory(keys));
        long rows = database.loadWideHistory(keys);
        double seconds = (System.nanoTime() - startedNanos) / 1e9;
        long entityBuckets = entityRows.join();
        System.out.printf(
                "Benchmark: wide key set of %d keys, %d buckets each over 30 days: %d buckets in %.1f s"
                        + " (%.0f rows/s); its entity scope history beside them, on a second connection: %d buckets,"
                        + " both in %.1f s%n",
                keys.size(),
                Scenario.WIDE_BUCKETS_PER_KEY,
                rows,
                seconds,
                rows / seconds,
                entityBuckets,
                (System.nanoTime() - startedNanos) / 1e9);
        return keys;
    }

    // every event counts at its entity too: its entity's history, as V5 backfills it from the key buckets,
    // loaded beside them on a second connection, as loadWide's
    private BenchmarkKeys load(BenchmarkKeys keys, int historyDays) {
        long startedNanos = System.nanoTime();
        CompletableFuture<Long> entityRows =
                CompletableFuture.supplyAsync(() -> database.loadEntityHistory(keys, historyDays));
        long rows = database.loadHistory(keys, historyDays);
        double seconds = (System.nanoTime() - startedNanos) / 1e9;
        long entityBuckets = entityRows.join();
        System.out.printf(
                "Benchmark: history of %d days for %d keys: %d buckets in %.1f s (%.0f rows/s); its entity scope"
                        + " history beside it, on a second connection: %d buckets, both in %.1f s%n",
                historyDays,
                keys.size(),
                rows,
                seconds,
                rows / seconds,
                entityBuckets,
                (System.nanoTime() - startedNanos) / 1e9);
        return keys;
    }

    /**
     * A service that has run for longer than its retention deletes as many decisions as it adds, and
     * its new rows reuse their space. A young request log grows instead, a page at a time, and on a
     * host with much memory the kernel writes those new pages back in one burst about every 30 s,
     * which stalls every commit behind it (docs/benchmark.md, "What mattered").
     */
    private void writeAndDeleteOldDecisions(Collection<BenchmarkKeys> keySets) {
        if (options.oldDecisionsPerKey() == 0) {
            return;
        }
        long startedNanos = System.nanoTime();
        long rows = 0;
        for (BenchmarkKeys keys : keySets) {
            // a key set of many keys writes as many as one of bench.keys keys: the free space is the log's,
            // not the keys'
            int perKey = (int) Math.max(1, (long) options.oldDecisionsPerKey() * options.keys() / keys.size());
            rows += database.writeAndDeleteOldDecisions(keys, Math.min(options.oldDecisionsPerKey(), perKey));
        }
        System.out.printf(
                "Benchmark: request log at its steady size: %d decisions past retention written and deleted in %.1f s%n",
                rows, (System.nanoTime() - startedNanos) / 1e9);
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

    /** The phases of the benchmark. */
    private record BenchmarkRunner(
            BenchmarkOptions options,
            BenchmarkKafka kafka,
            LoadDriver driver,
            DecisionLog decisions,
            BenchmarkDatabase database) {

        /** One throughput phase: the scenario's event stream (new dedupe ids each time) decided as fast as it goes. */
        RunResult.Throughput throughputPhase(
                Scenario scenario, ServiceUnderTest service, BenchmarkKeys keys, int events) {
            EventStream stream = new EventStream(scenario, keys, options.seed());
            return measureThroughput(scenario, service, stream, events);
        }

        /**
         * The database's ceiling on the events of the scenario's end-to-end phase (the same stream, fresh
         * dedupe ids), in batches of the size the service's decider took there.
         */
        RunResult.Throughput ceilingPhase(
                Scenario scenario, ServiceUnderTest service, BenchmarkKeys keys, int events, int batchSize) {
            DatabaseCeiling ceiling = new DatabaseCeiling(service, options.partitions());
            DatabaseCeiling.Prepared prepared =
                    ceiling.prepare(new EventStream(scenario, keys, options.seed()).next(events), batchSize);
            service.pause();
            collectTheHarnessGarbage();
            boolean statementStats = database.resetStatementStats();
            PhaseWatch watch = PhaseWatch.start(service, database);
            DatabaseCeiling.Decided decided = ceiling.decide(prepared);
            long endedNanos = System.nanoTime();
            Optional<ProcessCpu.Cost> cpu = watch.printSince("ceiling phase", service, decided.decisions());
            DecisionCost cost = watch.costSince(
                    service, decided.decisions(), OptionalLong.of(decided.callersCpuNanos()), endedNanos);
            System.out.println("Benchmark: cost per decision in the ceiling phase: " + cost);
            if (statementStats) {
                printStatements(scenario.name() + " ceiling phase");
            }
            service.resume();
            System.out.printf(
                    "Benchmark: %s ceiling: %d decisions in batches of %d by %d callers in %.2f s: %.0f decisions/s%n",
                    scenario.name(),
                    decided.decisions(),
                    batchSize,
                    prepared.batchesByCaller().size(),
                    decided.elapsedNanos() / 1e9,
                    decided.decisionsPerSecond());
            return new RunResult.Throughput(
                    decided.decisions(),
                    decided.decisionsPerSecond(),
                    decided.elapsedNanos() / 1_000_000,
                    decided.decisionsPerSecond(),
                    (double) decided.approved() / decided.decisions(),
                    watch.eventsPerTransaction(service),
                    cpu.orElse(null),
                    cost);
        }

        /**
         * The latency phase of one mode in one scenario, at its share of the median throughput measured
         * (if it is measured; otherwise the result has no latency); with the median of the ceiling
         * measured beside it (batched mode, where the ceiling ran).
         */
        RunResult latencyPhase(
                Scenario scenario,
                ServiceUnderTest service,
                BenchmarkKeys keys,
                List<RunResult.Throughput> measured,
                List<RunResult.Throughput> ceilings,
                boolean latencyMeasured) {
            RunResult.Throughput throughput = median(measured);
            System.out.printf(
                    "Benchmark: %s %s: throughput phases %s decisions/s (ceiling %s); the median counts; PostgreSQL"
                            + " CPU per 1,000 decisions %s ms%n",
                    scenario.name(),
                    service.mode(),
                    measured.stream()
                            .map(each -> String.format("%.0f", each.decisionsPerSecond()))
                            .toList(),
                    ceilings.stream()
                            .map(each -> String.format("%.0f", each.decisionsPerSecond()))
                            .toList(),
                    measured.stream()
                            .map(each -> each.cpuPerThousandDecisions() == null
                                    ? "-"
                                    : String.format(
                                            "%.0f",
                                            each.cpuPerThousandDecisions().postgresMillis()))
                            .toList());
            Optional<RunResult.Latency> settling = Optional.empty();
            RunResult.Latency latency = null;
            if (latencyMeasured) {
                EventStream stream = new EventStream(scenario, keys, options.seed());
                double rate =
                        options.latencyRate().orElse(throughput.decisionsPerSecond() * options.latencyLoadShare());
                settling = settle(service, stream, rate);
                latency = latency(service, stream, rate, options.latencyDuration(), "latency phase");
            }
            return new RunResult(
                    scenario.name(),
                    service.mode(),
                    keys.size(),
                    scenario.historyDays() * 24,
                    scenario.hotKeyShare(),
                    throughput,
                    latency,
                    settling.orElse(null),
                    ceilings.isEmpty() ? null : median(ceilings),
                    List.copyOf(measured),
                    List.copyOf(ceilings));
        }

        /**
         * The latency phase's rate for a while before it is measured, figures printed and kept apart:
         * small polls run code that full ones do not, and the JIT compiler compiles it when the rate
         * changes (0.3-0.4 cores of the two in quick runs), which is no steady state.
         */
        private Optional<RunResult.Latency> settle(ServiceUnderTest service, EventStream stream, double rate) {
            if (options.latencySettleDuration().isZero()) {
                return Optional.empty();
            }
            RunResult.Latency settling =
                    latency(service, stream, rate, options.latencySettleDuration(), "settling stretch");
            System.out.printf(
                    "Benchmark: settling stretch at %.0f events/s, not the result: p50 %d ms, p99 %d ms"
                            + " (from scheduled: p50 %d ms, p99 %d ms)%n",
                    rate,
                    settling.p50Millis(),
                    settling.p99Millis(),
                    settling.fromEventScheduled().p50Millis(),
                    settling.fromEventScheduled().p99Millis());
            return Optional.of(settling);
        }

        /** Events produced while the service is paused, then decided as fast as it goes. */
        private RunResult.Throughput measureThroughput(
                Scenario scenario, ServiceUnderTest service, EventStream stream, int events) {
            RunningService.Topics topics = service.topics();
            service.pause();
            Map<TopicPartition, Long> start = kafka.endOffsets(topics.decisions());
            Set<String> produced = driver.produceAll(topics.transactions(), stream, events);
            boolean statementStats = database.resetStatementStats();
            PhaseWatch watch = PhaseWatch.start(service, database);
            long resumedMillis = System.currentTimeMillis();
            service.resume();
            RunResult.Throughput throughput = throughput(service, watch, start, produced, resumedMillis);
            System.out.printf(
                    "Benchmark: %s %s end to end: %.0f decisions/s, %.1f events per transaction%n",
                    scenario.name(),
                    service.mode(),
                    throughput.decisionsPerSecond(),
                    throughput.eventsPerTransaction());
            if (statementStats) {
                printStatements(scenario.name() + " " + service.mode() + " throughput phase");
            }
            return throughput;
        }

        private void printStatements(String phase) {
            System.out.printf("Benchmark: %s: server time by statement%n", phase);
            database.topStatements(12).forEach(line -> System.out.println("  " + line));
            System.out.println("  " + database.bucketUpdates());
        }

        /**
         * The phase of median decisions per second, with the median CPU per decision and the median of
         * each cost figure of all the phases.
         */
        private static RunResult.Throughput median(List<RunResult.Throughput> measured) {
            List<ProcessCpu.Cost> costs = measured.stream()
                    .map(RunResult.Throughput::cpuPerThousandDecisions)
                    .filter(Objects::nonNull)
                    .toList();
            ProcessCpu.Cost cpu = costs.size() < measured.size()
                    ? null
                    : new ProcessCpu.Cost(
                            middle(costs, ProcessCpu.Cost::postgresMillis).postgresMillis(),
                            middle(costs, ProcessCpu.Cost::jvmMillis).jvmMillis());
            DecisionCost cost = DecisionCost.median(
                    measured.stream().map(RunResult.Throughput::cost).toList());
            return middle(measured, RunResult.Throughput::decisionsPerSecond).withMedians(cpu, cost);
        }

        private static <T> T middle(List<T> values, ToDoubleFunction<T> by) {
            List<T> sorted =
                    values.stream().sorted(Comparator.comparingDouble(by)).toList();
            // of an even number, the lower of the two middle ones: a latency rate from the higher would
            // overload a machine that has slowed down since
            return sorted.get((sorted.size() - 1) / 2);
        }

        /**
         * Rounds of a burst (as fast as it goes) and a paced stretch (at the latency phase's share of
         * the burst's rate), until the JIT compiler has settled or the warm-up limit has passed. The
         * figures are thrown away. The batched service's rounds take the streams of WARM_UP_SCENARIOS in
         * turn, and the warm-up ends no sooner than each has had one; the per-event baseline's take the
         * reversal mix only (it decides every event as an authorization).
         */
        void warmUp(ServiceUnderTest service, BenchmarkKeys keys, int eventsPerRound) {
            RunningService.Topics topics = service.topics();
            List<Scenario> scenarios =
                    service.mode().equals(BATCHED) ? WARM_UP_SCENARIOS : List.of(Scenario.REVERSAL_MIX);
            List<EventStream> streams = scenarios.stream()
                    .map(scenario -> new EventStream(scenario, keys, options.seed()))
                    .toList();
            long deadline = System.nanoTime() + options.warmUpLimit().toNanos();
            for (int round = 1; ; round++) {
                EventStream stream = streams.get((round - 1) % streams.size());
                Optional<JitActivity> jitBefore = JitActivity.now();
                long startedNanos = System.nanoTime();
                Map<TopicPartition, Long> before = kafka.endOffsets(topics.decisions());
                driver.produceAll(topics.transactions(), stream, eventsPerRound);
                kafka.awaitRecords(topics.decisions(), before, eventsPerRound, options.phaseTimeout());
                double pacedRate = options.latencyLoadShare() * eventsPerRound / secondsSince(startedNanos);
                int pacedEvents = (int) Math.max(1, Math.round(pacedRate * WARM_UP_PACED_SECONDS));
                before = kafka.endOffsets(topics.decisions());
                driver.produceAtRate(topics.transactions(), stream.next(pacedEvents), pacedRate);
                kafka.awaitRecords(topics.decisions(), before, pacedEvents, options.phaseTimeout());
                Optional<Double> jitCores =
                        jitBefore.flatMap(earlier -> JitActivity.now().map(later -> later.coresSince(earlier)));
                System.out.printf(
                        "Benchmark: warm-up %s round %d (%s): %.0f s, JIT compiling %s%n",
                        service.mode(),
                        round,
                        stream.scenario().name(),
                        secondsSince(startedNanos),
                        jitCores.map(cores -> String.format("%.2f cores", cores))
                                .orElse("(not reported)"));
                boolean everyStreamRan = round >= streams.size();
                if ((everyStreamRan && jitCores.orElse(0.0) < SETTLED_JIT_CORES) || System.nanoTime() > deadline) {
                    return;
                }
            }
        }

        private static double secondsSince(long startedNanos) {
            return (System.nanoTime() - startedNanos) / 1e9;
        }

        /** The produced events are on the topic before the service resumes; it decides them as fast as it can. */
        private RunResult.Throughput throughput(
                ServiceUnderTest service,
                PhaseWatch watch,
                Map<TopicPartition, Long> start,
                Set<String> produced,
                long resumedMillis) {
            kafka.awaitRecords(service.topics().decisions(), start, produced.size(), options.phaseTimeout());
            long endedNanos = System.nanoTime();
            Optional<ProcessCpu.Cost> cpu = watch.printSince("throughput phase", service, produced.size());
            DecisionCost cost = watch.costSince(service, produced.size(), OptionalLong.empty(), endedNanos);
            System.out.println("Benchmark: cost per decision in the throughput phase: " + cost);
            double eventsPerTransaction = watch.eventsPerTransaction(service);
            Collection<DecisionLog.Appended> decided =
                    decisions.read(start, produced, options.phaseTimeout()).values();
            long first = decided.stream()
                    .mapToLong(DecisionLog.Appended::appendedMillis)
                    .min()
                    .orElseThrow();
            long last = decided.stream()
                    .mapToLong(DecisionLog.Appended::appendedMillis)
                    .max()
                    .orElseThrow();
            int count = decided.size();
            System.out.println("Benchmark: decisions appended per second of the run: " + perSecond(decided, first));
            return new RunResult.Throughput(
                    count,
                    (count - 1) * 1000.0 / Math.max(1, last - first),
                    last - first,
                    count * 1000.0 / Math.max(1, last - resumedMillis),
                    approvedShare(decided),
                    eventsPerTransaction,
                    cpu.orElse(null),
                    cost);
        }

        /** How steady the rate was: warm-up, pauses and stragglers show here, not in the average. */
        private static List<Long> perSecond(Collection<DecisionLog.Appended> decided, long firstMillis) {
            Map<Long, Long> bySecond = decided.stream()
                    .collect(Collectors.groupingBy(
                            appended -> (appended.appendedMillis() - firstMillis) / 1000,
                            TreeMap::new,
                            Collectors.counting()));
            return List.copyOf(bySecond.values());
        }

        /** Whether the tail comes from a few stalls or from every second alike. */
        private static List<Long> worstPerSecond(
                Map<String, DecisionLog.Appended> decided, Map<String, Long> scheduled, long firstMillis) {
            Map<Long, Long> bySecond = decided.entrySet().stream()
                    .collect(Collectors.toMap(
                            entry -> (scheduled.get(entry.getKey()) - firstMillis) / 1000,
                            entry -> entry.getValue().appendedMillis() - scheduled.get(entry.getKey()),
                            Math::max,
                            TreeMap::new));
            return List.copyOf(bySecond.values());
        }

        /** Events at a fixed rate to the running service, for the given duration. */
        private RunResult.Latency latency(
                ServiceUnderTest service, EventStream stream, double rate, Duration duration, String phase) {
            RunningService.Topics topics = service.topics();
            List<EventStream.Event> events = stream.next((int) Math.max(1, Math.round(rate * duration.toSeconds())));
            collectTheHarnessGarbage();
            Map<TopicPartition, Long> eventsFrom = kafka.endOffsets(topics.transactions());
            Map<TopicPartition, Long> before = kafka.endOffsets(topics.decisions());
            boolean statementStats = database.resetStatementStats();
            PhaseWatch watch = PhaseWatch.start(service, database);
            Map<String, Long> scheduled = driver.produceAtRate(topics.transactions(), events, rate);
            kafka.awaitRecords(topics.decisions(), before, events.size(), options.phaseTimeout());
            watch.printSince(phase, service, events.size());
            if (statementStats) {
                printStatements(phase);
            }
            Map<String, DecisionLog.Appended> decided =
                    decisions.read(before, scheduled.keySet(), options.phaseTimeout());
            Map<String, Long> appended =
                    decisions.eventsAppended(eventsFrom, scheduled.keySet(), options.phaseTimeout());
            printLatencySplit(phase, decided, appended);
            long firstScheduled =
                    scheduled.values().stream().mapToLong(Long::longValue).min().orElse(0);
            System.out.println(
                    "Benchmark: worst latency (ms) from scheduled of the events scheduled in each second from "
                            + Instant.ofEpochMilli(firstScheduled)
                            + ": " + worstPerSecond(decided, scheduled, firstScheduled));
            return new RunResult.Latency(
                    rate,
                    decided.size(),
                    RunResult.Percentiles.of(sinceEach(decided, appended)),
                    RunResult.Percentiles.of(sinceEach(decided, scheduled)),
                    approvedShare(decided.values()));
        }

        /**
         * Where the latency went, split at each decision's decided_at (the database clock once its
         * batch's locks were taken; here the broker's clock too, one machine): before it, the wait for a
         * poll and for the locks; after it, the rest of the transaction, the commit and the publish.
         * Printed for all events and for the slowest hundredth, whose split says where the tail comes
         * from.
         */
        private static void printLatencySplit(
                String phase, Map<String, DecisionLog.Appended> decided, Map<String, Long> eventAppended) {
            List<long[]> splits = decided.entrySet().stream()
                    .map(entry -> {
                        DecisionLog.Appended decision = entry.getValue();
                        long untilDecided = decision.decidedAtMillis() - eventAppended.get(entry.getKey());
                        return new long[] {untilDecided, decision.appendedMillis() - decision.decidedAtMillis()};
                    })
                    .sorted(Comparator.comparingLong(split -> split[0] + split[1]))
                    .toList();
            List<long[]> slowest = splits.subList(splits.size() - Math.max(1, splits.size() / 100), splits.size());
            Latencies before =
                    new Latencies(splits.stream().mapToLong(split -> split[0]).toArray());
            Latencies after =
                    new Latencies(splits.stream().mapToLong(split -> split[1]).toArray());
            System.out.printf(
                    "Benchmark: %s latency split at decided_at: before it p50 %d / p99 %d ms, after it p50 %d / p99 %d ms;"
                            + " the slowest 1 %% spent %.0f ms before and %.0f ms after, on average%n",
                    phase,
                    before.percentileMillis(0.5),
                    before.percentileMillis(0.99),
                    after.percentileMillis(0.5),
                    after.percentileMillis(0.99),
                    slowest.stream().mapToLong(split -> split[0]).average().orElse(0),
                    slowest.stream().mapToLong(split -> split[1]).average().orElse(0));
        }

        /**
         * The service shares this JVM with the benchmark, whose reading back of the last stretch's
         * decisions leaves garbage and whose events for this one are live until it ends. Left in the
         * young generation, every young collection in the stretch copies the events again: in a
         * quick run (JFR) its pauses grew from 8 to 31 ms, about one a second, each one latency for
         * the service. Collected here, they are in the old generation before the clock starts.
         */
        private static void collectTheHarnessGarbage() {
            System.gc();
        }

        /** Each decision's append time minus the event's given time. */
        private static long[] sinceEach(Map<String, DecisionLog.Appended> decided, Map<String, Long> eventMillis) {
            return decided.entrySet().stream()
                    .mapToLong(entry -> entry.getValue().appendedMillis() - eventMillis.get(entry.getKey()))
                    .toArray();
        }

        Map<String, Object> overrides() {
            return Map.of(
                    "risk.decider.concurrency",
                    options.concurrency(),
                    "risk.topics.partitions",
                    options.partitions(),
                    "risk.roles",
                    "decider");
        }

        private static double approvedShare(Collection<DecisionLog.Appended> decided) {
            Map<Boolean, Long> byVerdict = decided.stream()
                    .collect(Collectors.partitioningBy(DecisionLog.Appended::approved, Collectors.counting()));
            return (double) byVerdict.get(true) / decided.size();
        }
    }
}
