package io.risklimits.archive;

import io.risklimits.RiskProperties;
import io.risklimits.decision.Window;
import java.time.Duration;
import org.springframework.boot.kafka.autoconfigure.ConcurrentKafkaListenerContainerFactoryConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.ExponentialBackOff;

@Configuration(proxyBeanMethods = false)
class ArchiverConfiguration {

    ArchiverConfiguration(RiskProperties risk) {
        refuseRetentionShorterThanTheLongestWindow(risk.retention());
    }

    /**
     * Archive commands are read strictly and every one is answered, so what fails here is the
     * database or the broker: retried with growing pauses until it passes, never skipped.
     */
    @Bean
    @SuppressWarnings({"unchecked", "rawtypes"})
    ConcurrentKafkaListenerContainerFactory<byte[], byte[]> archiverContainerFactory(
            ConcurrentKafkaListenerContainerFactoryConfigurer configurer,
            ConsumerFactory<Object, Object> consumerFactory) {
        ConcurrentKafkaListenerContainerFactory factory = new ConcurrentKafkaListenerContainerFactory<>();
        configurer.configure(factory, consumerFactory);
        ExponentialBackOff untilItPasses = new ExponentialBackOff(1000, 2.0);
        untilItPasses.setMaxInterval(60_000);
        factory.setCommonErrorHandler(new DefaultErrorHandler(
                (record, failure) -> {
                    throw new IllegalStateException("archive command not handled", failure);
                },
                untilItPasses));
        return factory;
    }

    static void refuseRetentionShorterThanTheLongestWindow(Duration retention) {
        Duration longest = Duration.ofHours(Window.LAST_30_DAYS.hours());
        if (retention.compareTo(longest) < 0) {
            throw new IllegalStateException("risk.retention is " + retention.toDays() + "d (" + retention
                    + ") but must be at least the longest limit window, 30d: deleting younger buckets would"
                    + " make usage look smaller than it is and approve what the limits forbid");
        }
    }
}
