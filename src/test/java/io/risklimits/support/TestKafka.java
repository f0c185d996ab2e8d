package io.risklimits.support;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;

/** Plain Kafka clients for tests: produce raw records, and read a whole topic from the beginning. */
public final class TestKafka {

    private TestKafka() {}

    public static KafkaProducer<byte[], byte[]> producer() {
        return new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestInfrastructure.get().bootstrapServers(),
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.LINGER_MS_CONFIG,
                5,
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                2 * 1024 * 1024,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class));
    }

    public static void send(
            KafkaProducer<byte[], byte[]> producer, String topic, Integer partition, String key, byte[] value) {
        try {
            producer.send(new ProducerRecord<>(topic, partition, key == null ? null : utf8(key), value))
                    .get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Waits until every partition of the topics has a leader. Producing to a topic the moment it is
     * created can otherwise fail (NotLeaderOrFollower, then OutOfOrderSequence for the idempotent
     * producer) and lose the test's records.
     */
    public static void awaitLeaders(Collection<String> topics) {
        awaitLeaders(TestInfrastructure.get().bootstrapServers(), topics);
    }

    /** {@link #awaitLeaders(Collection)} on another broker (the fault suite's own). */
    public static void awaitLeaders(String bootstrapServers, Collection<String> topics) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            Awaitility.await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
                Map<TopicPartition, OffsetSpec> partitions = new HashMap<>();
                admin.describeTopics(topics)
                        .allTopicNames()
                        .get()
                        .values()
                        .forEach(topic -> topic.partitions()
                                .forEach(partition -> partitions.put(
                                        new TopicPartition(topic.name(), partition.partition()), OffsetSpec.latest())));
                // answered by each partition's leader itself, which the metadata can announce a little early
                admin.listOffsets(partitions).all().get();
                return true;
            });
        }
    }

    /** Waits for every send; a record the broker did not take fails the test instead of going missing. */
    public static void confirm(List<Future<RecordMetadata>> sends) {
        for (Future<RecordMetadata> send : sends) {
            try {
                send.get(60, TimeUnit.SECONDS);
            } catch (InterruptedException | ExecutionException | TimeoutException e) {
                throw new IllegalStateException("The test's own send failed", e);
            }
        }
    }

    public static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Reads the topic from the beginning until the condition holds for everything read. */
    public static List<ConsumerRecord<byte[], byte[]>> readUntil(
            String topic, Duration timeout, Predicate<List<ConsumerRecord<byte[], byte[]>>> done) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestInfrastructure.get().bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG,
                "test-reader-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class))) {
            consumer.subscribe(List.of(topic));
            Awaitility.await().atMost(timeout).pollInterval(Duration.ZERO).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                return done.test(records);
            });
        }
        return records;
    }

    /** Everything on the topic now: reads from the beginning up to the end offsets taken at the start. */
    public static List<ConsumerRecord<byte[], byte[]>> readAvailable(String topic) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestInfrastructure.get().bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class))) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ZERO)
                    .until(() -> {
                        consumer.poll(Duration.ofMillis(100)).forEach(records::add);
                        return partitions.stream()
                                .allMatch(partition -> consumer.position(partition) >= end.get(partition));
                    });
        }
        return records;
    }

    public static List<ConsumerRecord<byte[], byte[]>> readAtLeast(String topic, int count, Duration timeout) {
        return readUntil(topic, timeout, records -> records.size() >= count);
    }
}
