package io.risklimits.bench;

import static io.risklimits.bench.DecisionBenchmark.BATCHED;

import io.risklimits.support.RunningService;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;

/**
 * The phases of the benchmark: the warm-up, the throughput and ceiling phases, and the latency phase with
 * its settling stretch, each printing what it measured.
 */
record BenchmarkRunner(
        BenchmarkOptions options,
        BenchmarkKafka kafka,
        LoadDriver driver,
        DecisionLog decisions,
        BenchmarkDatabase database) {

    // a warm-up round whose JIT compiling took less than this share of one core ends the warm-up
    private static final double SETTLED_JIT_CORES = 0.05;
    private static final int WARM_UP_PACED_SECONDS = 5;
    // the batched service's warm-up streams: every decision path a measured scenario takes (reversals,
    // holds with their captures, increments and expiries, conversions, account scopes) is compiled before
    // its first measured phase
    private static final List<Scenario> WARM_UP_SCENARIOS =
            List.of(Scenario.REVERSAL_MIX, Scenario.HOLDS_MIX, Scenario.FX_MIX, Scenario.ALL_SCOPES);

    /** One throughput phase: the scenario's event stream (new dedupe ids each time) decided as fast as it goes. */
    RunResult.Throughput throughputPhase(Scenario scenario, ServiceUnderTest service, BenchmarkKeys keys, int events) {
        EventStream stream = new EventStream(scenario, keys, options.seed());
        return measureThroughput(scenario, service, stream, events);
    }

    /**
     * The database's ceiling on the events of the scenario's end-to-end phase (the same stream, fresh
     * dedupe ids), in batches of one partition's events of the size the service's decider took there
     * ({@link DatabaseCeiling}).
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
        DecisionCost cost =
                watch.costSince(service, decided.decisions(), OptionalLong.of(decided.callersCpuNanos()), endedNanos);
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
     * measured beside it (batched mode, where the ceiling ran). beforeEachStretch runs right before the
     * settling stretch and again before the phase (a wide key set's first sights are made so again).
     */
    RunResult latencyPhase(
            Scenario scenario,
            ServiceUnderTest service,
            BenchmarkKeys keys,
            List<RunResult.Throughput> measured,
            List<RunResult.Throughput> ceilings,
            boolean latencyMeasured,
            Runnable beforeEachStretch) {
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
                                        "%.0f", each.cpuPerThousandDecisions().postgresMillis()))
                        .toList());
        Optional<RunResult.Latency> settling = Optional.empty();
        RunResult.Latency latency = null;
        if (latencyMeasured) {
            EventStream stream = new EventStream(scenario, keys, options.seed());
            double rate = options.latencyRate().orElse(throughput.decisionsPerSecond() * options.latencyLoadShare());
            beforeEachStretch.run();
            settling = settle(service, stream, rate);
            beforeEachStretch.run();
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
                scenario.name(), service.mode(), throughput.decisionsPerSecond(), throughput.eventsPerTransaction());
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
        List<T> sorted = values.stream().sorted(Comparator.comparingDouble(by)).toList();
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
        List<Scenario> scenarios = service.mode().equals(BATCHED) ? WARM_UP_SCENARIOS : List.of(Scenario.REVERSAL_MIX);
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
                    jitCores.map(cores -> String.format("%.2f cores", cores)).orElse("(not reported)"));
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
        // the decisions are read back while costSince waits for the server to report its statistics; the
        // read does not enter the cost: costSince takes its CPU figures first, PostgreSQL's and the decider
        // threads' alone
        CompletableFuture<Collection<DecisionLog.Appended>> readBack = CompletableFuture.supplyAsync(
                () -> decisions.read(start, produced, options.phaseTimeout()).values());
        DecisionCost cost = watch.costSince(service, produced.size(), OptionalLong.empty(), endedNanos);
        System.out.println("Benchmark: cost per decision in the throughput phase: " + cost);
        double eventsPerTransaction = watch.eventsPerTransaction(service);
        Collection<DecisionLog.Appended> decided = readBack.join();
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
        long endedNanos = System.nanoTime();
        watch.printSince(phase, service, events.size());
        // before the statements are read: their query is the server's CPU too
        DecisionCost cost = watch.costSince(service, events.size(), OptionalLong.empty(), endedNanos);
        double eventsPerTransaction = watch.eventsPerTransaction(service);
        System.out.printf(
                "Benchmark: cost per decision in the %s: %s; %.1f events per transaction%n",
                phase, cost, eventsPerTransaction);
        if (statementStats) {
            printStatements(phase);
        }
        Map<String, DecisionLog.Appended> decided = decisions.read(before, scheduled.keySet(), options.phaseTimeout());
        Map<String, Long> appended = decisions.eventsAppended(eventsFrom, scheduled.keySet(), options.phaseTimeout());
        printLatencySplit(phase, decided, appended);
        long firstScheduled =
                scheduled.values().stream().mapToLong(Long::longValue).min().orElse(0);
        System.out.println("Benchmark: worst latency (ms) from scheduled of the events scheduled in each second from "
                + Instant.ofEpochMilli(firstScheduled)
                + ": " + worstPerSecond(decided, scheduled, firstScheduled));
        return new RunResult.Latency(
                rate,
                decided.size(),
                RunResult.Percentiles.of(sinceEach(decided, appended)),
                RunResult.Percentiles.of(sinceEach(decided, scheduled)),
                approvedShare(decided.values()),
                eventsPerTransaction,
                cost);
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
