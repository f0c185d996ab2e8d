package io.risklimits.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.Optional;

/**
 * How much of the time the JIT compiler of this JVM (service, broker and load generator alike) spent
 * compiling between two moments. On two cores a compiler still busy with the service's code takes a
 * share of the machine that a long-running service would not pay, so the benchmark warms up until it
 * is quiet and prints it for every phase measured.
 */
record JitActivity(long compilingMillis, long atNanos) {

    private static final Optional<CompilationMXBean> COMPILER = Optional.ofNullable(
                    ManagementFactory.getCompilationMXBean())
            .filter(CompilationMXBean::isCompilationTimeMonitoringSupported);

    /** Empty when the JVM does not report its compilation time. */
    static Optional<JitActivity> now() {
        return COMPILER.map(compiler -> new JitActivity(compiler.getTotalCompilationTime(), System.nanoTime()));
    }

    /** Compiling time per elapsed time since that earlier reading, in cores (0.5 = half a core). */
    double coresSince(JitActivity earlier) {
        double elapsedMillis = Math.max(1, (atNanos - earlier.atNanos) / 1e6);
        return (compilingMillis - earlier.compilingMillis) / elapsedMillis;
    }
}
