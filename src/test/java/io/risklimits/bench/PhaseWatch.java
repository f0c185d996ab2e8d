package io.risklimits.bench;

import java.util.Optional;

/**
 * What the machine, the JIT compiler and the decider did during one measured phase: read when the
 * phase starts, printed when it ends.
 */
record PhaseWatch(Optional<MachineLoad> machine, Optional<JitActivity> jit, PollStages decider) {

    static PhaseWatch start(ServiceUnderTest service) {
        return new PhaseWatch(MachineLoad.now(), JitActivity.now(), service.pollStages());
    }

    void printSince(String phase, ServiceUnderTest service) {
        machine.ifPresent(earlier -> MachineLoad.now()
                .ifPresent(later -> System.out.println(
                        "Benchmark: machine during the " + phase + ": " + later.sharesSince(earlier))));
        jit.ifPresent(earlier -> JitActivity.now()
                .ifPresent(later -> System.out.printf(
                        "Benchmark: JIT compiling during the %s: %.2f cores%n", phase, later.coresSince(earlier))));
        System.out.println("Benchmark: decider during the " + phase + ": "
                + service.pollStages().since(decider));
    }
}
