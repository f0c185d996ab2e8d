package io.risklimits.support;

import io.risklimits.Application;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * The real service, started in this JVM against the shared test infrastructure. Each test gets its
 * own topics (a unique suffix) so tests cannot see each other's records; several instances started
 * with the same {@link Topics} form one consumer group, as separate processes would.
 */
public final class RunningService implements AutoCloseable {

    private final ConfigurableApplicationContext context;

    private RunningService(ConfigurableApplicationContext context) {
        this.context = context;
    }

    public static RunningService start(Topics topics, Map<String, Object> overrides) {
        return start(topics, overrides, WebApplicationType.NONE, new Class<?>[0]);
    }

    /** The service with its HTTP port (actuator) on a free port; see {@link #baseUrl()}. */
    public static RunningService startServing(Topics topics, Map<String, Object> overrides) {
        Map<String, Object> withPort = new HashMap<>(overrides);
        withPort.putIfAbsent("server.port", 0);
        return start(topics, withPort, WebApplicationType.SERVLET, new Class<?>[0]);
    }

    /** The service with further configuration classes (the benchmark's baseline decider, say). */
    public static RunningService start(Topics topics, Map<String, Object> overrides, Class<?>... sources) {
        return start(topics, overrides, WebApplicationType.NONE, sources);
    }

    private static RunningService start(
            Topics topics, Map<String, Object> overrides, WebApplicationType web, Class<?>... sources) {
        TestInfrastructure infrastructure = TestInfrastructure.get();
        Map<String, Object> properties = new HashMap<>();
        properties.put("spring.datasource.url", infrastructure.jdbcUrl());
        properties.put("spring.datasource.username", infrastructure.username());
        properties.put("spring.datasource.password", infrastructure.password());
        properties.put("spring.kafka.bootstrap-servers", infrastructure.bootstrapServers());
        properties.put("risk.topics.transactions", topics.transactions());
        properties.put("risk.topics.decisions", topics.decisions());
        properties.put("risk.topics.dead-letter", topics.deadLetter());
        properties.put("risk.topics.archive-commands", topics.archiveCommands());
        properties.put("risk.topics.archive-results", topics.archiveResults());
        properties.put("risk.decider.group-id", topics.groupId());
        properties.putAll(overrides);
        // command-line arguments outrank application.yml; builder "properties" would not
        String[] arguments = properties.entrySet().stream()
                .map(entry -> "--" + entry.getKey() + "=" + entry.getValue())
                .toArray(String[]::new);
        ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
                .sources(sources)
                .web(web)
                .run(arguments);
        TestKafka.awaitLeaders(List.of(topics.transactions(), topics.decisions(), topics.deadLetter()));
        awaitDeciderAssignments(context);
        return new RunningService(context);
    }

    /**
     * Returns once each decider consumer of this service holds partitions, so that a test's first
     * events are decided by a settled group rather than during its first rebalances. A service started
     * paused, or without the decider role, is not waited for.
     */
    private static void awaitDeciderAssignments(ConfigurableApplicationContext context) {
        MessageListenerContainer decider = deciderOf(context);
        if (decider == null || !decider.isRunning()) {
            return;
        }
        List<? extends MessageListenerContainer> consumers =
                decider instanceof ConcurrentMessageListenerContainer<?, ?> c ? c.getContainers() : List.of(decider);
        Awaitility.await("partitions assigned to every decider consumer")
                .atMost(Duration.ofSeconds(60))
                .until(() -> consumers.stream().allMatch(consumer -> {
                    Collection<TopicPartition> assigned = consumer.getAssignedPartitions();
                    return assigned != null && !assigned.isEmpty();
                }));
    }

    /** The decider's listener container (null when the service does not run the decider role). */
    public MessageListenerContainer decider() {
        return deciderOf(context);
    }

    private static MessageListenerContainer deciderOf(ConfigurableApplicationContext context) {
        return context.getBean(KafkaListenerEndpointRegistry.class).getListenerContainer("risk-decider");
    }

    public static RunningService start(Topics topics) {
        return start(topics, Map.of());
    }

    public <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    /** http://localhost:port of a service started with {@link #startServing}. */
    public String baseUrl() {
        return "http://localhost:" + context.getEnvironment().getProperty("local.server.port");
    }

    @Override
    public void close() {
        context.close();
    }

    /** A test's own set of topic names and consumer group. */
    public record Topics(String suffix) {

        public static Topics unique() {
            return new Topics(UUID.randomUUID().toString().substring(0, 8));
        }

        public String transactions() {
            return "risk.transactions." + suffix;
        }

        public String decisions() {
            return "risk.decisions." + suffix;
        }

        public String deadLetter() {
            return "risk.transactions.dlt." + suffix;
        }

        public String archiveCommands() {
            return "risk.archive.commands." + suffix;
        }

        public String archiveResults() {
            return "risk.archive.results." + suffix;
        }

        public String groupId() {
            return "risk-decider-" + suffix;
        }
    }
}
