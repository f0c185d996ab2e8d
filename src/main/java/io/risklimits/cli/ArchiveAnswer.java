package io.risklimits.cli;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The archiver's result for one command_id (schemas/archive-result.schema.json). */
record ArchiveAnswer(String json, JsonNode fields) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Reads the results topic until the answer to this command arrives, or the timeout passes. */
    static Optional<ArchiveAnswer> await(KafkaConsumer<String, String> results, UUID commandId, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (ConsumerRecord<String, String> record : results.poll(Duration.ofMillis(500))) {
                Optional<ArchiveAnswer> answer = parse(record.value());
                if (answer.isPresent()
                        && commandId.toString().equals(answer.get().text("command_id"))) {
                    return answer;
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<ArchiveAnswer> parse(String value) {
        try {
            JsonNode fields = value == null ? null : JSON.readTree(value);
            return fields != null && fields.isObject()
                    ? Optional.of(new ArchiveAnswer(value, fields))
                    : Optional.empty();
        } catch (JacksonException notJson) {
            return Optional.empty(); // not an answer of ours: someone else's record on the topic
        }
    }

    String status() {
        return text("status");
    }

    /** COMPLETED reached the cutoff; PARTIAL stopped at max_windows as asked. Anything else did not run. */
    boolean succeeded() {
        return "COMPLETED".equals(status()) || "PARTIAL".equals(status());
    }

    String summary() {
        if (!succeeded()) {
            String error = text("error");
            return status() + (error == null ? "" : ": " + error);
        }
        boolean dryRun = fields.path("dry_run").asBoolean();
        return status() + (dryRun ? " (dry run): would delete " : ": deleted ")
                + fields.path("deleted_agg_rows").asLong() + " hourly buckets and "
                + fields.path("deleted_log_rows").asLong() + " request-log rows in "
                + fields.path("windows").asInt() + " windows; cursor "
                + orNone(text("cursor_from")) + " -> " + orNone(text("cursor_to")) + ", cutoff " + text("cutoff");
    }

    private static String orNone(String text) {
        return text == null ? "none" : text;
    }

    private String text(String field) {
        JsonNode node = fields.get(field);
        return node == null || node.isNull() ? null : node.asString();
    }
}
