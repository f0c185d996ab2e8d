package io.risklimits.bench;

import io.risklimits.support.RunningService;
import io.risklimits.support.TestKafka;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.record.TimestampType;

/**
 * Topics of one run, created before anything is produced (the service leaves existing topics as
 * they are), and progress read from end offsets, which costs the service under test nothing.
 */
final class BenchmarkKafka implements AutoCloseable {

    private final Admin admin;
    private final int partitions;

    BenchmarkKafka(String bootstrapServers, int partitions) {
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
        this.partitions = partitions;
    }

    /**
     * Events and decisions get LogAppendTime, so each record's timestamp is when the broker appended
     * it: the two ends of "event appended -> decision appended", the service's linger and send
     * included. (The load driver keeps each event's scheduled time itself.)
     */
    void createTopics(RunningService.Topics topics) {
        Map<String, String> appendTime =
                Map.of(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, TimestampType.LOG_APPEND_TIME.name);
        NewTopic transactions = new NewTopic(topics.transactions(), partitions, (short) 1).configs(appendTime);
        NewTopic decisions = new NewTopic(topics.decisions(), partitions, (short) 1).configs(appendTime);
        get(admin.createTopics(List.of(transactions, decisions)).all());
        TestKafka.awaitLeaders(List.of(topics.transactions(), topics.decisions()));
    }

    List<TopicPartition> partitionsOf(String topic) {
        return IntStream.range(0, partitions)
                .mapToObj(partition -> new TopicPartition(topic, partition))
                .toList();
    }

    Map<TopicPartition, Long> endOffsets(String topic) {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        partitionsOf(topic).forEach(partition -> latest.put(partition, OffsetSpec.latest()));
        Map<TopicPartition, Long> offsets = new HashMap<>();
        get(admin.listOffsets(latest).all()).forEach((partition, info) -> offsets.put(partition, info.offset()));
        return offsets;
    }

    /** Waits until the topic holds at least count records after the given offsets. */
    void awaitRecords(String topic, Map<TopicPartition, Long> from, long count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (appendedSince(topic, from) < count) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Only " + appendedSince(topic, from) + " of " + count + " decisions on "
                        + topic + " after " + timeout);
            }
            try {
                Thread.sleep(100); // polling the broker's offsets: nothing to await on the service's side
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private long appendedSince(String topic, Map<TopicPartition, Long> from) {
        return endOffsets(topic).entrySet().stream()
                .mapToLong(end -> end.getValue() - from.getOrDefault(end.getKey(), 0L))
                .sum();
    }

    private static <T> T get(KafkaFuture<T> future) {
        try {
            return future.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Kafka admin request failed", e);
        }
    }

    @Override
    public void close() {
        admin.close();
    }
}
