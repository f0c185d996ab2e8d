package io.risklimits.local;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.kafka.autoconfigure.KafkaConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Local mode without spring.kafka.bootstrap-servers: a real single-node KRaft Kafka broker in this process. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty("risk.local")
@ConditionalOnExpression("'${spring.kafka.bootstrap-servers:}'.isEmpty()")
class EmbeddedKafkaConfiguration {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedKafkaConfiguration.class);

    @Bean(destroyMethod = "stop")
    LocalKafkaBroker embeddedKafka(EmbeddedServersProperties embedded) throws Exception {
        EmbeddedServersProperties.Kafka settings = embedded.kafka();
        LocalKafkaBroker broker = LocalKafkaBroker.start(
                settings.port(), settings.controllerPort(), settings.dataDirectory(), settings.partitions());
        log.info(
                "Embedded Kafka at {} with data in {} (set spring.kafka.bootstrap-servers to use your own)",
                broker.bootstrapServers(),
                settings.dataDirectory().toAbsolutePath());
        return broker;
    }

    @Bean
    KafkaConnectionDetails embeddedKafkaConnectionDetails(LocalKafkaBroker broker) {
        return () -> List.of(broker.bootstrapServers());
    }
}
