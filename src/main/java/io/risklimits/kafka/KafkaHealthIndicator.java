package io.risklimits.kafka;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AdminClient;
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
 * Kafka's part of /actuator/health: UP when the cluster answers and every listener container of this
 * process (decider, archiver) is running. A stopped container means a partition nobody decides.
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
        builder.withDetail("clusterId", cluster.clusterId().get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS))
                .withDetail(
                        "brokers",
                        cluster.nodes()
                                .get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
                                .size());
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
