package io.risklimits.bench;

import io.micrometer.core.instrument.MeterRegistry;
import io.risklimits.decider.PerEventBaseline;
import io.risklimits.support.RunningService;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
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

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final String mode;
    private final RunningService.Topics topics;
    private final RunningService service;
    // threads of this JVM before the service started: the decider's threads are among the others
    private final Set<Long> threadsBefore;
    private volatile Set<Long> deciderThreads = Set.of();

    private ServiceUnderTest(
            String mode, RunningService.Topics topics, RunningService service, Set<Long> threadsBefore) {
        this.mode = mode;
        this.topics = topics;
        this.service = service;
        this.threadsBefore = threadsBefore;
    }

    static ServiceUnderTest start(String mode, BenchmarkKafka kafka, Map<String, Object> overrides) {
        RunningService.Topics topics = RunningService.Topics.unique();
        kafka.createTopics(topics);
        Set<Long> threadsBefore = liveThreadIds();
        return new ServiceUnderTest(
                mode, topics, RunningService.start(topics, overrides, configurationOf(mode)), threadsBefore);
    }

    /**
     * per-event: one transaction per event, the baseline; batched: the production service as it is. Both
     * with their round trips to the database counted.
     */
    private static Class<?>[] configurationOf(String mode) {
        return switch (mode) {
            case "per-event" -> new Class<?>[] {PerEventBaseline.class, RoundTripCounting.class};
            case "batched" -> new Class<?>[] {RoundTripCounting.class};
            default -> throw new IllegalArgumentException("bench.modes takes per-event and batched, not " + mode);
        };
    }

    /**
     * Notes the decider's threads: those started since this service began starting (the broker's and the
     * load driver's were already there) that are its listener's consumer threads ({@code risk-decider-N-C-M}),
     * its consumer group's heartbeat thread, or a producer's network thread (the service's publisher,
     * whose producer starts with the first decision sent). Called once the service has sent decisions.
     */
    void noteDeciderThreads() {
        deciderThreads = Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> !threadsBefore.contains(thread.getId()))
                .filter(thread -> isDeciderThread(thread.getName()))
                .map(Thread::getId)
                .collect(Collectors.toUnmodifiableSet());
    }

    private boolean isDeciderThread(String name) {
        return name.startsWith("risk-decider-")
                || name.startsWith("kafka-producer-network-thread")
                || name.contains(topics.groupId());
    }

    /** CPU nanoseconds the decider's threads have used so far (threads since gone no longer count). */
    long deciderCpuNanos() {
        return deciderThreads.stream()
                .mapToLong(THREADS::getThreadCpuTime)
                .filter(nanos -> nanos > 0)
                .sum();
    }

    int deciderThreadCount() {
        return deciderThreads.size();
    }

    /** Round trips the service has made to PostgreSQL since it started. */
    long roundTrips() {
        return service.bean(RoundTripCounting.RoundTrips.class).count();
    }

    private static Set<Long> liveThreadIds() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getId).collect(Collectors.toUnmodifiableSet());
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
