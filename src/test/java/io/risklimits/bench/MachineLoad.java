package io.risklimits.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * How busy the whole machine was between two moments, from Linux's /proc/stat: figures from one run to
 * the next are only comparable when the machine around them was the same, and a shared VM is not always.
 */
record MachineLoad(long user, long system, long iowait, long steal, long idle) {

    private static final Path PROC_STAT = Path.of("/proc/stat");

    /** The CPU time counters since boot; empty where /proc/stat is not there (not Linux). */
    static Optional<MachineLoad> now() {
        try {
            String[] fields = Files.readAllLines(PROC_STAT).get(0).trim().split("\\s+");
            // cpu user nice system idle iowait irq softirq steal ...
            return Optional.of(new MachineLoad(
                    Long.parseLong(fields[1]) + Long.parseLong(fields[2]),
                    Long.parseLong(fields[3]) + Long.parseLong(fields[6]) + Long.parseLong(fields[7]),
                    Long.parseLong(fields[5]),
                    Long.parseLong(fields[8]),
                    Long.parseLong(fields[4])));
        } catch (IOException | RuntimeException unavailable) {
            return Optional.empty();
        }
    }

    /** "user 80 %, system 17 %, ..." of the time between that earlier reading and this one. */
    String sharesSince(MachineLoad earlier) {
        long user = this.user - earlier.user;
        long system = this.system - earlier.system;
        long iowait = this.iowait - earlier.iowait;
        long steal = this.steal - earlier.steal;
        long idle = this.idle - earlier.idle;
        double total = Math.max(1, user + system + iowait + steal + idle);
        return String.format(
                "user %.0f %%, system %.0f %%, iowait %.0f %%, steal %.0f %%, idle %.0f %%",
                100 * user / total,
                100 * system / total,
                100 * iowait / total,
                100 * steal / total,
                100 * idle / total);
    }
}
