package io.risklimits.support;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** A decision read back from the decisions topic. */
public record DecisionMessage(JsonNode json, int partition, long offset) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    public static DecisionMessage of(ConsumerRecord<byte[], byte[]> record) {
        DecisionSchema.assertValidDecision(record.value());
        return new DecisionMessage(JSON.readTree(record.value()), record.partition(), record.offset());
    }

    /**
     * Reads the decisions topic from its start until it holds a decision for every one of the dedupe_ids
     * (and whatever else it holds by then, redelivered copies too); fails after the timeout.
     */
    public static List<DecisionMessage> readUntilAllDecided(String topic, Set<String> dedupeIds, Duration timeout) {
        return TestKafka.readUntil(
                        topic,
                        timeout,
                        records -> records.stream()
                                .map(record -> JSON.readTree(record.value())
                                        .get("dedupe_id")
                                        .stringValue())
                                .collect(Collectors.toSet())
                                .containsAll(dedupeIds))
                .stream()
                .map(DecisionMessage::of)
                .toList();
    }

    public String dedupeId() {
        return json.get("dedupe_id").stringValue();
    }

    public String decision() {
        return json.get("decision").stringValue();
    }

    public String reason() {
        JsonNode reason = json.get("reason");
        return reason.isNull() ? null : reason.stringValue();
    }

    public boolean replayed() {
        return json.get("replayed").booleanValue();
    }

    public long usageAmount(String window) {
        return json.get("usage").get(window).get("amount").longValue();
    }

    public long usageCount(String window) {
        return json.get("usage").get(window).get("count").longValue();
    }

    /** The message without its replayed flag: every message of one dedupe_id must be equal to this. */
    public JsonNode withoutReplayedFlag() {
        ObjectNode copy = ((ObjectNode) json).deepCopy();
        copy.remove("replayed");
        return copy;
    }
}
