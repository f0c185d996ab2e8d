package io.risklimits.bench;

import io.micrometer.core.instrument.MeterRegistry;
import io.risklimits.decider.PerEventBaseline;
import io.risklimits.support.RunningService;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * One running service per decider mode, on topics of its own, kept for the whole benchmark: warmed up
 * once, it decides every scenario's events with its code compiled hot, as a long-running service
 * would. Paused while a throughput phase's backlog is produced, resumed to decide it.
 */
final class ServiceUnderTest implements AutoCloseable {

    private static final Duration PAUSE_TIMEOUT = Duration.ofSeconds(30);

    private final String mode;
    private final RunningService.Topics topics;
    private final RunningService service;

    private ServiceUnderTest(String mode, RunningService.Topics topics, RunningService service) {
        this.mode = mode;
        this.topics = topics;
        this.service = service;
    }

    static ServiceUnderTest start(String mode, BenchmarkKafka kafka, Map<String, Object> overrides) {
        RunningService.Topics topics = RunningService.Topics.unique();
        kafka.createTopics(topics);
        return new ServiceUnderTest(mode, topics, RunningService.start(topics, overrides, configurationOf(mode)));
    }

    /** per-event: one transaction per event, the baseline; batched: the production service as it is. */
    private static Class<?>[] configurationOf(String mode) {
        return switch (mode) {
            case "per-event" -> new Class<?>[] {PerEventBaseline.class};
            case "batched" -> new Class<?>[0];
            default -> throw new IllegalArgumentException("bench.modes takes per-event and batched, not " + mode);
        };
    }

    String mode() {
        return mode;
    }

    RunningService.Topics topics() {
        return topics;
    }

    /** Returns once the decider has stopped consuming: what is produced now waits on the topic. */
    void pause() {
        MessageListenerContainer decider = service.decider();
        decider.pause();
        Awaitility.await().atMost(PAUSE_TIMEOUT).until(decider::isContainerPaused);
    }

    /** The decider's transaction and publish-wait meters now. */
    PollStages pollStages() {
        return PollStages.of(service.bean(MeterRegistry.class));
    }

    void resume() {
        service.decider().resume();
    }

    /** The partitions of the transactions topic each consumer thread holds now, one set per thread. */
    List<Set<Integer>> assignedPartitions() {
        MessageListenerContainer decider = service.decider();
        List<? extends MessageListenerContainer> consumers =
                decider instanceof ConcurrentMessageListenerContainer<?, ?> concurrent
                        ? concurrent.getContainers()
                        : List.of(decider);
        return consumers.stream()
                .map(consumer -> partitionsOf(consumer.getAssignedPartitions()))
                .toList();
    }

    private Set<Integer> partitionsOf(Collection<TopicPartition> assigned) {
        return assigned == null
                ? Set.of()
                : assigned.stream()
                        .filter(partition -> partition.topic().equals(topics.transactions()))
                        .map(TopicPartition::partition)
                        .collect(Collectors.toSet());
    }

    /** A bean of the service's context: the ceiling drives its decision store directly. */
    <T> T bean(Class<T> type) {
        return service.bean(type);
    }

    @Override
    public void close() {
        service.close();
    }
}
