package io.risklimits.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/** The report as JSON (snake_case, like every message of the project). */
final class ResultsWriter {

    private static final JsonMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .build();

    private ResultsWriter() {}

    static void write(BenchmarkReport report, Path file) {
        write(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report) + "\n");
    }

    static void write(Map<String, Object> summary, Path file) {
        write(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(summary) + "\n");
    }

    static void write(Path file, String text) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
