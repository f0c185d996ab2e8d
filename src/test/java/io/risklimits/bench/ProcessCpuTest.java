package io.risklimits.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ProcessCpuTest {

    @BeforeEach
    void procIsThere() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "/proc is Linux's");
    }

    @Test
    void aPostmasterPidThatIsNoPostgresProcessReadsNothingRatherThanAnIdleServer() {
        long thisJvm = ProcessHandle.current().pid();

        assertThat(ProcessCpu.isPostgres(thisJvm)).isFalse();
        assertThat(ProcessCpu.now(OptionalLong.of(thisJvm))).isEmpty();
    }

    @Test
    void withoutAPostmasterPidEveryPostgresProcessCounts() {
        assertThat(ProcessCpu.now(OptionalLong.empty())).isPresent();
    }
}
