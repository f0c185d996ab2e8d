package io.risklimits.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * Several deciders of one consumer group, each a service of its own. Their listeners start only once all
 * of them are up, so the consumer threads join the group together instead of the first service deciding
 * everything alone while the others are still starting.
 */
public final class ConsumerGroup implements AutoCloseable {

    private final List<RunningService> services = new ArrayList<>();

    private ConsumerGroup() {}

    /** Starts the services, their listeners paused; more properties may be given for each service. */
    public static ConsumerGroup startPaused(
            RunningService.Topics topics, int services, int threadsPerService, Map<String, Object> more) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("risk.roles", "decider");
        properties.put("risk.decider.concurrency", threadsPerService);
        properties.put("spring.kafka.listener.auto-startup", false);
        properties.putAll(more);
        ConsumerGroup group = new ConsumerGroup();
        try {
            for (int i = 0; i < services; i++) {
                group.services.add(RunningService.start(topics, properties));
            }
        } catch (RuntimeException failure) {
            group.close();
            throw failure;
        }
        return group;
    }

    public void startConsumingTogether() {
        services.forEach(service -> service.decider().start());
    }

    /** Waits until the group has settled: every consumer thread of every service holds a partition. */
    public void awaitEveryConsumerAssigned() {
        List<MessageListenerContainer> consumers = services.stream()
                .flatMap(service ->
                        ((ConcurrentMessageListenerContainer<?, ?>) service.decider()).getContainers().stream())
                .map(MessageListenerContainer.class::cast)
                .toList();
        Awaitility.await("a partition assigned to every consumer thread")
                .atMost(Duration.ofSeconds(60))
                .until(() -> consumers.stream().allMatch(consumer -> {
                    Collection<TopicPartition> assigned = consumer.getAssignedPartitions();
                    return assigned != null && !assigned.isEmpty();
                }));
    }

    @Override
    public void close() {
        services.forEach(RunningService::close);
    }
}
