package io.risklimits.kafka;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.stereotype.Component;

/**
 * Kafka's part of /actuator/health and of readiness: UP when the cluster answers and every listener
 * container of this process (decider, archiver) is running. A stopped container means a partition nobody
 * decides; an unreachable cluster is DOWN with the brokers it tried and why it failed.
 */
@Component("kafka")
class KafkaHealthIndicator extends AbstractHealthIndicator implements DisposableBean {

    private static final int TIMEOUT_MILLIS = 3000;

    private final KafkaAdmin admin;
    private final KafkaListenerEndpointRegistry listeners;
    private AdminClient client;

    KafkaHealthIndicator(KafkaAdmin admin, KafkaListenerEndpointRegistry listeners) {
        super("Kafka health check failed");
        this.admin = admin;
        this.listeners = listeners;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) throws Exception {
        DescribeClusterResult cluster =
                client().describeCluster(new DescribeClusterOptions().timeoutMs(TIMEOUT_MILLIS));
        try {
            builder.withDetail("clusterId", cluster.clusterId().get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS))
                    .withDetail(
                            "brokers",
                            cluster.nodes()
                                    .get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
                                    .size());
        } catch (ExecutionException | TimeoutException unreachable) {
            String why = unreachable instanceof ExecutionException failed
                    ? String.valueOf(failed.getCause())
                    : "no answer within " + TIMEOUT_MILLIS + " ms";
            builder.down().withDetail("error", "cannot reach the Kafka brokers at " + bootstrapServers() + ": " + why);
            return;
        }
        Map<String, Boolean> running = new TreeMap<>();
        for (MessageListenerContainer container : listeners.getListenerContainers()) {
            running.put(container.getListenerId(), container.isRunning());
        }
        builder.withDetail("listeners", running);
        if (running.containsValue(false)) {
            builder.down();
        } else {
            builder.up();
        }
    }

    private String bootstrapServers() {
        Object servers = admin.getConfigurationProperties().get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
        return servers instanceof Collection<?> list
                ? list.stream().map(String::valueOf).collect(Collectors.joining(","))
                : String.valueOf(servers);
    }

    private synchronized AdminClient client() {
        if (client == null) {
            client = AdminClient.create(admin.getConfigurationProperties());
        }
        return client;
    }

    @Override
    public synchronized void destroy() {
        if (client != null) {
            client.close();
        }
    }
}
