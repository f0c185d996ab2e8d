package io.risklimits.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * CPU time used by the PostgreSQL server and by this JVM (service, broker and load driver) between two
 * moments, per decision: on a shared machine that runs slow for a while, the seconds a phase takes
 * stretch, the CPU time each decision needs much less, so this is the figure that says whether a cost
 * grows (with history, say) when decisions per second drift.
 *
 * <p>PostgreSQL's share is read from /proc/PID/stat of the benchmark's server: its postmaster and the
 * postmaster's children (backends, workers, checkpointer, WAL writer), user and system time, and the
 * time of the children the postmaster has reaped (backends and workers that have exited). Other
 * PostgreSQL servers on the same machine are not counted. Without the postmaster's pid (a server in
 * a container), every process named {@code postgres} on the machine counts. Linux only.
 */
record ProcessCpu(long postgresTicks, long jvmNanos) {

    // USER_HZ: the unit of /proc's CPU times, 100 on every Linux architecture the JVM runs on
    private static final double MILLIS_PER_TICK = 10;

    /**
     * The CPU of the server whose postmaster has this pid (empty: of every postgres process) and of this
     * JVM; nothing when the pid is not a running postgres process, rather than a server that seems idle.
     */
    static Optional<ProcessCpu> now(OptionalLong postmaster) {
        if (!(ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os)) {
            return Optional.empty();
        }
        if (postmaster.isPresent() && !isPostgres(postmaster.getAsLong())) {
            return Optional.empty();
        }
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            long ticks = processes
                    .filter(path -> path.getFileName().toString().chars().allMatch(Character::isDigit))
                    .mapToLong(process -> postgresTicksOf(process, postmaster))
                    .sum();
            return Optional.of(new ProcessCpu(ticks, os.getProcessCpuTime()));
        } catch (IOException | RuntimeException unavailable) {
            return Optional.empty();
        }
    }

    /** Whether the process runs and is a PostgreSQL server process. */
    static boolean isPostgres(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).equals("postgres");
        } catch (IOException | RuntimeException gone) {
            return false;
        }
    }

    /** The parent of a process (the postmaster of a backend), if it can be read. */
    static OptionalLong parentOf(long pid) {
        try {
            String[] fields = fieldsAfterComm(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
            return OptionalLong.of(Long.parseLong(fields[1]));
        } catch (IOException | RuntimeException unreadable) {
            return OptionalLong.empty();
        }
    }

    /**
     * utime + stime + cutime + cstime of a postgres process of the server (the postmaster or one of its
     * children), 0 for any other or one gone meanwhile.
     */
    private static long postgresTicksOf(Path process, OptionalLong postmaster) {
        try {
            String stat = Files.readString(process.resolve("stat"));
            if (!stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).equals("postgres")) {
                return 0;
            }
            String[] fields = fieldsAfterComm(stat);
            long pid = Long.parseLong(process.getFileName().toString());
            if (postmaster.isPresent()
                    && pid != postmaster.getAsLong()
                    && Long.parseLong(fields[1]) != postmaster.getAsLong()) {
                return 0;
            }
            // fields[0] is stat's field 3 (state); utime, stime, cutime, cstime are fields 14 to 17
            return Long.parseLong(fields[11])
                    + Long.parseLong(fields[12])
                    + Long.parseLong(fields[13])
                    + Long.parseLong(fields[14]);
        } catch (IOException | RuntimeException gone) {
            return 0;
        }
    }

    /** pid (comm) state ppid ...: comm may hold spaces, the fields after its ')' do not. */
    private static String[] fieldsAfterComm(String stat) {
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    }

    /** Microseconds of PostgreSQL's CPU per decision since that earlier reading. */
    double postgresMicrosPerDecisionSince(ProcessCpu earlier, long decisions) {
        return (postgresTicks - earlier.postgresTicks) * MILLIS_PER_TICK * 1000 / Math.max(1, decisions);
    }

    /** Milliseconds of CPU per 1,000 decisions since that earlier reading. */
    Cost perThousandSince(ProcessCpu earlier, long decisions) {
        double thousands = Math.max(1, decisions) / 1000.0;
        return new Cost(
                (postgresTicks - earlier.postgresTicks) * MILLIS_PER_TICK / thousands,
                (jvmNanos - earlier.jvmNanos) / 1e6 / thousands);
    }

    /** CPU milliseconds per 1,000 decisions. */
    record Cost(double postgresMillis, double jvmMillis) {

        @Override
        public String toString() {
            return String.format(
                    "PostgreSQL %.0f ms, this JVM (service, broker, load driver) %.0f ms", postgresMillis, jvmMillis);
        }
    }
}
