package io.risklimits.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.RunningService;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.ProducerFactory;

/**
 * Every Kafka client of the service (admin, producer, and the consumer factory both listener
 * factories use) is built from Spring Boot's spring.kafka.* properties, so security settings reach
 * all of them. Shown with settings the test broker ignores: PLAINTEXT and an unused SASL mechanism.
 */
class KafkaClientSettingsIT {

    @Test
    void securitySettingsReachTheAdminTheProducerAndTheConsumers() {
        Map<String, Object> security = Map.of(
                "spring.kafka.security.protocol", "PLAINTEXT",
                "spring.kafka.properties.sasl.mechanism", "SCRAM-SHA-512",
                "spring.kafka.properties.ssl.endpoint.identification.algorithm", "https");
        try (RunningService service = RunningService.start(RunningService.Topics.unique(), security)) {
            Map<String, Object> admin = service.bean(KafkaAdmin.class).getConfigurationProperties();
            Map<String, Object> producer = service.bean(ProducerFactory.class).getConfigurationProperties();
            Map<String, Object> consumer = service.bean(ConsumerFactory.class).getConfigurationProperties();

            for (Map<String, Object> client : java.util.List.of(admin, producer, consumer)) {
                assertThat(client)
                        .containsEntry("security.protocol", "PLAINTEXT")
                        .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                        .containsEntry("ssl.endpoint.identification.algorithm", "https");
            }
        }
    }
}
