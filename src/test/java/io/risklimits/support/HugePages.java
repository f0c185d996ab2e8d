package io.risklimits.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * Huge pages for the embedded server's shared memory, reserved in the kernel before it starts, as a
 * production server with gigabytes of shared_buffers is set up (PostgreSQL's documentation, "Linux
 * Huge Pages"). With 4 kB pages each server process maps every page of shared memory it touches with a
 * page fault of its own, and a workload that reaches across many buffers (a card portfolio's keys)
 * misses the CPU's address translation cache more often. PostgreSQL's default
 * (huge_pages = try) uses huge pages when the kernel has enough free, else falls back to 4 kB pages
 * without a word: the server's huge_pages_status says which it got.
 *
 * <p>Linux only, and only where this process may write /proc/sys/vm/nr_hugepages (as root, outside a
 * container that forbids it); elsewhere it reserves nothing and says why. What it added is given back
 * when the JVM exits.
 */
final class HugePages {

    private static final Path MEMINFO = Path.of("/proc/meminfo");
    private static final Path RESERVED = Path.of("/proc/sys/vm/nr_hugepages");

    private HugePages() {}

    /**
     * Makes room for a server of this much shared_buffers (with an eighth and 64 MB more for the rest of
     * its shared memory: lock tables, WAL buffers). Returns what it did, for the run's output.
     */
    static String reserveFor(long sharedBuffersBytes) {
        try {
            List<String> meminfo = Files.readAllLines(MEMINFO);
            OptionalLong pageKb = field(meminfo, "Hugepagesize:");
            OptionalLong free = field(meminfo, "HugePages_Free:");
            if (pageKb.isEmpty() || free.isEmpty()) {
                return "no huge pages on this kernel";
            }
            long pageBytes = pageKb.getAsLong() * 1024;
            long sharedMemory = sharedBuffersBytes + sharedBuffersBytes / 8 + (64L << 20);
            long needed = (sharedMemory + pageBytes - 1) / pageBytes;
            if (free.getAsLong() >= needed) {
                return free.getAsLong() + " huge pages free, " + needed + " needed";
            }
            long before = reserved();
            long wanted = before + needed - free.getAsLong();
            Files.writeString(RESERVED, Long.toString(wanted));
            Runtime.getRuntime().addShutdownHook(new Thread(() -> giveBack(before)));
            long now = reserved();
            return "vm.nr_hugepages " + before + " -> " + now + " (" + needed + " of " + pageKb.getAsLong() / 1024
                    + " MB needed; given back at exit)";
        } catch (IOException | RuntimeException e) {
            return "none reserved (" + e + ")";
        }
    }

    private static long reserved() throws IOException {
        // readAllLines, not readString: /proc files report a size of 0
        return Long.parseLong(Files.readAllLines(RESERVED).get(0).trim());
    }

    private static void giveBack(long before) {
        try {
            // pages still mapped by a server that has not stopped yet are freed when it does
            Files.writeString(RESERVED, Long.toString(before));
        } catch (IOException e) {
            System.err.println("Could not give the huge pages back: vm.nr_hugepages stays raised (" + e + ")");
        }
    }

    private static OptionalLong field(List<String> meminfo, String name) {
        return meminfo.stream()
                .filter(line -> line.startsWith(name))
                .mapToLong(line ->
                        Long.parseLong(line.substring(name.length()).trim().split("\\s+")[0]))
                .findFirst();
    }
}
