package io.risklimits.kafka;

import io.risklimits.decision.DeciderProperties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.kafka.autoconfigure.ConcurrentKafkaListenerContainerFactoryConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.listener.ContainerProperties.AckMode;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.ExponentialBackOff;
import org.springframework.util.backoff.FixedBackOff;

/**
 * The decider's Kafka error policy, in one place. Every failure ends in a retry or a dead letter,
 * never a skip: infrastructure failures (database or broker unavailable) are retried with growing
 * pauses until they pass, holding the partition's offset; a failure tied to one record is retried
 * twice and then dead-lettered, so that record cannot stall its partition.
 */
@Configuration(proxyBeanMethods = false)
class DeciderListenerConfiguration {

    private static final Logger log = LoggerFactory.getLogger(DeciderListenerConfiguration.class);

    @Bean
    @SuppressWarnings({"unchecked", "rawtypes"})
    ConcurrentKafkaListenerContainerFactory<byte[], byte[]> deciderContainerFactory(
            ConcurrentKafkaListenerContainerFactoryConfigurer configurer,
            ConsumerFactory<Object, Object> consumerFactory,
            DeadLetterPublisher deadLetters,
            DeciderProperties properties) {
        ConcurrentKafkaListenerContainerFactory factory = new ConcurrentKafkaListenerContainerFactory<>();
        configurer.configure(factory, consumerFactory);
        factory.setBatchListener(true);
        factory.getContainerProperties().setAckMode(AckMode.BATCH);
        // The poll's decisions are on the decisions topic before its offsets are committed (the listener
        // waits for every send); the commit itself need not hold up the next poll. A commit that is lost
        // (a crash, a rebalance) redelivers records whose decisions are stored: they are answered again
        // with the stored decision, marked replayed.
        factory.getContainerProperties().setSyncCommits(false);
        factory.setCommonErrorHandler(errorHandler(deadLetters, properties));
        return factory;
    }

    private static DefaultErrorHandler errorHandler(DeadLetterPublisher deadLetters, DeciderProperties properties) {
        DefaultErrorHandler handler = new DefaultErrorHandler(
                (record, failure) -> deadLetter(deadLetters, properties, record, failure), new FixedBackOff(1000, 2));
        handler.setBackOffFunction(
                (record, failure) -> FailureKind.of(failure) == FailureKind.INFRASTRUCTURE ? untilItPasses() : null);
        handler.setCommitRecovered(true);
        return handler;
    }

    private static ExponentialBackOff untilItPasses() {
        ExponentialBackOff backOff = new ExponentialBackOff(200, 2.0);
        backOff.setMaxInterval(30_000);
        return backOff;
    }

    @SuppressWarnings("unchecked")
    private static void deadLetter(
            DeadLetterPublisher deadLetters,
            DeciderProperties properties,
            ConsumerRecord<?, ?> record,
            Exception failure) {
        Throwable cause = rootCause(failure);
        log.error(
                "Dead-lettering record {}-{}@{} after retries: {}",
                record.topic(),
                record.partition(),
                record.offset(),
                LogSafe.text(cause.toString()));
        try {
            deadLetters
                    .publish(
                            (ConsumerRecord<byte[], byte[]>) record,
                            cause.getClass().getName(),
                            String.valueOf(cause.getMessage()))
                    .get(properties.sendTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception sendFailure) {
            // thrown on so the error handler keeps the record and tries again; it is never skipped
            throw new IllegalStateException("Could not dead-letter the record", sendFailure);
        }
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }
}
