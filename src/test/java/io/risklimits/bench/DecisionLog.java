package io.risklimits.bench;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Reads the decisions of a phase back from the decisions topic, once the phase is over. */
final class DecisionLog {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The first decision message of one dedupe_id: its append time and verdict. */
    record Appended(long appendedMillis, boolean approved) {}

    private final String bootstrapServers;

    DecisionLog(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    /**
     * The decisions of the wanted dedupe ids, reading from the given offsets on until each has one.
     * A re-published decision (replayed, after a rebalance) keeps the time of the first.
     */
    Map<String, Appended> read(Map<TopicPartition, Long> from, Set<String> wanted, Duration timeout) {
        int expected = wanted.size();
        Map<String, Appended> decisions = new HashMap<>(expected * 2);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG,
                "bench-reader-" + UUID.randomUUID(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                5_000,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class))) {
            consumer.assign(from.keySet());
            from.forEach(consumer::seek);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (decisions.size() < expected) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Read " + decisions.size() + " of " + expected + " decisions");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    JsonNode decision = JSON.readTree(record.value());
                    String dedupeId = decision.get("dedupe_id").stringValue();
                    if (!wanted.contains(dedupeId)) {
                        continue; // a late replay of an earlier phase
                    }
                    decisions.merge(
                            dedupeId,
                            new Appended(
                                    record.timestamp(),
                                    "APPROVED".equals(decision.get("decision").stringValue())),
                            (first, later) -> first.appendedMillis() <= later.appendedMillis() ? first : later);
                }
            }
        }
        return decisions;
    }
}
