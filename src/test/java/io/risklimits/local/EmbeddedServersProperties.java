package io.risklimits.local;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where local mode's embedded servers listen and keep their data. Each starts only in local mode
 * (risk.local=true) and only when its connection (spring.datasource.url, respectively
 * spring.kafka.bootstrap-servers) is not set.
 */
@ConfigurationProperties("risk.embedded")
public record EmbeddedServersProperties(
        @DefaultValue Postgres postgres, @DefaultValue Kafka kafka) {

    /** @param dataDirectory kept across restarts, so decisions and usage survive them */
    public record Postgres(
            @DefaultValue("54329") int port,
            @DefaultValue("data/postgres") Path dataDirectory) {}

    /**
     * @param controllerPort the KRaft controller's listener, which clients do not use
     * @param partitions for topics the broker creates on its own
     * @param dataDirectory kept across restarts, so topics and committed offsets survive them
     */
    public record Kafka(
            @DefaultValue("9092") int port,
            @DefaultValue("9093") int controllerPort,
            @DefaultValue("12") int partitions,
            @DefaultValue("data/kafka") Path dataDirectory) {}
}
