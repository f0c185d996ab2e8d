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
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
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
        firstOfEach(from, wanted, timeout, true)
                .forEach((dedupeId, first) -> decisions.put(
                        dedupeId,
                        new Appended(
                                first.appendedMillis(),
                                "APPROVED".equals(first.message().decision()),
                                Instant.parse(first.message().decidedAt()).toEpochMilli())));
        return decisions;
    }

    /**
     * When the broker appended each wanted event (the transactions topic has LogAppendTime), reading
     * from the given offsets on: where "event appended -> decision appended" starts.
     */
    Map<String, Long> eventsAppended(Map<TopicPartition, Long> from, Set<String> wanted, Duration timeout) {
        Map<String, Long> appended = new HashMap<>(wanted.size() * 2);
        firstOfEach(from, wanted, timeout, false)
                .forEach((dedupeId, first) -> appended.put(dedupeId, first.appendedMillis()));
        return appended;
    }

    /**
     * The top-level fields of a message the benchmark reads: the dedupe_id, and of a decision its verdict
     * and decided_at (null when not asked for, or absent).
     */
    record Message(String dedupeId, String decision, String decidedAt) {

        /**
         * Reads them in one pass over the message's JSON, skipping nested objects and arrays (a shadow
         * decision's own "decision" among them) and stopping once it has what it was asked for: tens of
         * thousands of decisions are read back after every phase.
         */
        static Message of(byte[] json, boolean decision) {
            String dedupeId = null;
            String verdict = null;
            String decidedAt = null;
            try (JsonParser parser = JSON.createParser(json)) {
                if (parser.nextToken() != JsonToken.START_OBJECT) {
                    return new Message(null, null, null);
                }
                for (String name = parser.nextName(); name != null; name = parser.nextName()) {
                    JsonToken value = parser.nextToken();
                    String text = value == JsonToken.VALUE_STRING ? parser.getString() : null;
                    switch (name) {
                        case "dedupe_id" -> dedupeId = text;
                        case "decision" -> verdict = text;
                        case "decided_at" -> decidedAt = text;
                        default -> parser.skipChildren();
                    }
                    if (dedupeId != null && (!decision || (verdict != null && decidedAt != null))) {
                        break;
                    }
                }
            }
            return new Message(dedupeId, verdict, decidedAt);
        }
    }

    // a wanted record as first appended: when, and what it said
    private record First(long appendedMillis, Message message) {}

    /**
     * Per wanted dedupe_id, its record with the earliest timestamp, once every one has been read; decision:
     * whether they are decisions, whose verdict and decided_at are read too.
     */
    private Map<String, First> firstOfEach(
            Map<TopicPartition, Long> from, Set<String> wanted, Duration timeout, boolean decision) {
        int expected = wanted.size();
        Map<String, First> first = new HashMap<>(expected * 2);
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
                    Message message = Message.of(record.value(), decision);
                    if (message.dedupeId() == null || !wanted.contains(message.dedupeId())) {
                        continue; // a late replay of an earlier phase
                    }
                    first.merge(
                            message.dedupeId(),
                            new First(record.timestamp(), message),
                            (earlier, later) -> earlier.appendedMillis() <= later.appendedMillis() ? earlier : later);
                }
            }
        }
        return first;
    }
}
