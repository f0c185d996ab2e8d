package io.risklimits.bench;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * What the machine, the JIT compiler and the decider did during one measured phase: read when the
 * phase starts, printed when it ends.
 */
record PhaseWatch(
        Optional<MachineLoad> machine,
        Optional<JitActivity> jit,
        Optional<ProcessCpu> cpu,
        PollStages decider,
        BenchmarkDatabase database,
        Optional<BenchmarkDatabase.SessionWrites> sessionWrites,
        Optional<BenchmarkDatabase.WalWritten> walWritten,
        BenchmarkDatabase.ServerCounters server,
        long roundTrips,
        long deciderCpuNanos) {

    // the server's sessions report their statistics when idle, at most once a second (PGSTAT_MIN_INTERVAL)
    private static final long STATISTICS_REPORTED_NANOS = TimeUnit.MILLISECONDS.toNanos(1_200);

    static PhaseWatch start(ServiceUnderTest service, BenchmarkDatabase database) {
        return new PhaseWatch(
                MachineLoad.now(),
                JitActivity.now(),
                ProcessCpu.now(database.postmasterPid()),
                service.pollStages(),
                database,
                database.sessionWrites(),
                database.walWritten(),
                database.serverCounters(),
                service.roundTrips(),
                service.deciderCpuNanos());
    }

    /**
     * What each decision of the phase cost; the phase's work ended at endedNanos (System.nanoTime). The
     * decider's CPU is its threads' unless the phase ran on threads of its own (the ceiling's callers),
     * whose CPU is given. The server's statistics are read once its sessions have reported them.
     */
    DecisionCost costSince(ServiceUnderTest service, long decisions, OptionalLong callersCpuNanos, long endedNanos) {
        Optional<ProcessCpu> cpuNow = ProcessCpu.now(database.postmasterPid());
        long deciderNanos = callersCpuNanos.orElseGet(() -> service.deciderCpuNanos() - deciderCpuNanos);
        long trips = service.roundTrips() - roundTrips;
        PollStages polls = service.pollStages();
        long transactions = polls.transactions() - decider.transactions();
        long wait = endedNanos + STATISTICS_REPORTED_NANOS - System.nanoTime();
        if (wait > 0) {
            LockSupport.parkNanos(wait);
        }
        BenchmarkDatabase.ServerCounters serverNow = database.serverCounters();
        double perDecision = 1.0 / Math.max(1, decisions);
        long blocksHit = serverNow.blocksHit() - server.blocksHit();
        long blocksTouched = blocksHit + serverNow.blocksRead() - server.blocksRead();
        return new DecisionCost(
                cpu.flatMap(earlier -> cpuNow.map(later -> later.postgresMicrosPerDecisionSince(earlier, decisions)))
                        .orElse(null),
                service.deciderThreadCount() == 0 && callersCpuNanos.isEmpty()
                        ? null
                        : deciderNanos / 1e3 * perDecision,
                (serverNow.walPosition() - server.walPosition()) * perDecision,
                server.fullPageImages() < 0
                        ? null
                        : (serverNow.fullPageImages() - server.fullPageImages()) * 1000.0 * perDecision,
                transactions == 0 ? null : (double) trips / transactions,
                (serverNow.indexScans() - server.indexScans()) * perDecision,
                blocksTouched == 0 ? null : (double) blocksHit / blocksTouched);
    }

    /** Events per database transaction of the service's decider since the phase started. */
    double eventsPerTransaction(ServiceUnderTest service) {
        return service.pollStages().eventsPerTransactionSince(decider);
    }

    /** Prints what the phase cost; returns its CPU per 1,000 decisions, where that can be read. */
    Optional<ProcessCpu.Cost> printSince(String phase, ServiceUnderTest service, long decisions) {
        Optional<ProcessCpu.Cost> cost = cpu.flatMap(earlier ->
                ProcessCpu.now(database.postmasterPid()).map(later -> later.perThousandSince(earlier, decisions)));
        machine.ifPresent(earlier -> MachineLoad.now()
                .ifPresent(later -> System.out.println(
                        "Benchmark: machine during the " + phase + ": " + later.sharesSince(earlier))));
        jit.ifPresent(earlier -> JitActivity.now()
                .ifPresent(later -> System.out.printf(
                        "Benchmark: JIT compiling during the %s: %.2f cores%n", phase, later.coresSince(earlier))));
        System.out.println("Benchmark: decider during the " + phase + ": "
                + service.pollStages().since(decider));
        sessionWrites.ifPresent(earlier -> database.sessionWrites()
                .ifPresent(later -> System.out.println(
                        "Benchmark: PostgreSQL sessions during the " + phase + ": " + later.since(earlier))));
        walWritten.ifPresent(earlier -> database.walWritten()
                .ifPresent(later ->
                        System.out.println("Benchmark: WAL during the " + phase + ": " + later.since(earlier))));
        cost.ifPresent(each -> System.out.println("Benchmark: CPU per 1,000 decisions in the " + phase + ": " + each));
        return cost;
    }
}
