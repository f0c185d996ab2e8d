package io.risklimits.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The production jar, as the package phase built it: integration tests that run the service as its own process use it. */
public final class PackagedJar {

    private PackagedJar() {}

    public static Path path() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("target"))) {
            return files.filter(path -> path.getFileName().toString().matches("risk-limits-.*\\.jar"))
                    .findFirst()
                    .map(Path::toAbsolutePath)
                    .orElseThrow(
                            () -> new IllegalStateException(
                                    "no target/risk-limits-*.jar: tests that run the packaged jar run after the package phase"));
        }
    }
}
