package io.risklimits.bench;

import java.util.Optional;

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
        Optional<BenchmarkDatabase.WalWritten> walWritten) {

    static PhaseWatch start(ServiceUnderTest service, BenchmarkDatabase database) {
        return new PhaseWatch(
                MachineLoad.now(),
                JitActivity.now(),
                ProcessCpu.now(),
                service.pollStages(),
                database,
                database.sessionWrites(),
                database.walWritten());
    }

    /** Events per database transaction of the service's decider since the phase started. */
    double eventsPerTransaction(ServiceUnderTest service) {
        return service.pollStages().eventsPerTransactionSince(decider);
    }

    /** Prints what the phase cost; returns its CPU per 1,000 decisions, where that can be read. */
    Optional<ProcessCpu.Cost> printSince(String phase, ServiceUnderTest service, long decisions) {
        Optional<ProcessCpu.Cost> cost =
                cpu.flatMap(earlier -> ProcessCpu.now().map(later -> later.perThousandSince(earlier, decisions)));
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
