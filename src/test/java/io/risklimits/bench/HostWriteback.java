package io.risklimits.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * How this Linux host writes dirty page cache back to disk (/proc/sys/vm). PostgreSQL extends its
 * tables through the page cache and leaves those pages to the kernel; with the defaults on a machine
 * of 24 GB the kernel lets them pile up for 30 s and then writes them out at once, and every commit's
 * WAL flush waits behind that burst (docs/benchmark.md, "What mattered"). Printed
 * with the results, since the same service measures differently under different settings.
 */
final class HostWriteback {

    private static final Path VM = Path.of("/proc/sys/vm");
    private static final List<String> SETTINGS =
            List.of("dirty_background_bytes", "dirty_background_ratio", "dirty_expire_centisecs");

    private HostWriteback() {}

    /** For example "vm.dirty_background_bytes=0, vm.dirty_background_ratio=10, ..."; "unknown" off Linux. */
    static String describe() {
        try {
            return SETTINGS.stream().map(HostWriteback::setting).collect(Collectors.joining(", "));
        } catch (RuntimeException unavailable) {
            return "unknown";
        }
    }

    private static String setting(String name) {
        try {
            // readAllLines, not readString: /proc files report a size of 0, and readString read one byte
            return "vm." + name + "="
                    + Files.readAllLines(VM.resolve(name)).get(0).trim();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
