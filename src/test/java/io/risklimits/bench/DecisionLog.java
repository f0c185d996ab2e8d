package io.risklimits.bench;

import java.time.Duration;
import java.time.Instant;
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

/** Reads the decisions and events of a phase back from their topics, once the phase is over. */
final class DecisionLog {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * The first decision message of one dedupe_id: its append time, its verdict, and its decided_at
     * (the database clock once the batch's locks were taken), which splits the latency in two.
     */
    record Appended(long appendedMillis, boolean approved, long decidedAtMillis) {}

    private final String bootstrapServers;

    DecisionLog(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    /**
     * The decisions of the wanted dedupe ids, reading from the given offsets on until each has one.
     * A re-published decision (replayed, after a rebalance) keeps the time of the first.
     */
    Map<String, Appended> read(Map<TopicPartition, Long> from, Set<String> wanted, Duration timeout) {
        Map<String, Appended> decisions = new HashMap<>(wanted.size() * 2);
        firstOfEach(from, wanted, timeout).forEach((dedupeId, record) -> decisions.put(dedupeId, appended(record)));
        return decisions;
    }

    private static Appended appended(ConsumerRecord<byte[], byte[]> record) {
        JsonNode decision = JSON.readTree(record.value());
        return new Appended(
                record.timestamp(),
                "APPROVED".equals(decision.get("decision").stringValue()),
                Instant.parse(decision.get("decided_at").stringValue()).toEpochMilli());
    }

    /**
     * When the broker appended each wanted event (the transactions topic has LogAppendTime), reading
     * from the given offsets on: where "event appended -> decision appended" starts.
     */
    Map<String, Long> eventsAppended(Map<TopicPartition, Long> from, Set<String> wanted, Duration timeout) {
        Map<String, Long> appended = new HashMap<>(wanted.size() * 2);
        firstOfEach(from, wanted, timeout).forEach((dedupeId, record) -> appended.put(dedupeId, record.timestamp()));
        return appended;
    }

    /** Per wanted dedupe_id, its record with the earliest timestamp, once every one has been read. */
    private Map<String, ConsumerRecord<byte[], byte[]>> firstOfEach(
            Map<TopicPartition, Long> from, Set<String> wanted, Duration timeout) {
        int expected = wanted.size();
        Map<String, ConsumerRecord<byte[], byte[]>> first = new HashMap<>(expected * 2);
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
            while (first.size() < expected) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Read " + first.size() + " of " + expected + " records");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    String dedupeId =
                            JSON.readTree(record.value()).get("dedupe_id").stringValue();
                    if (!wanted.contains(dedupeId)) {
                        continue; // a late replay of an earlier phase
                    }
                    first.merge(
                            dedupeId,
                            record,
                            (earlier, later) -> earlier.timestamp() <= later.timestamp() ? earlier : later);
                }
            }
        }
        return first;
    }
}
