package io.risklimits.kafka;

import io.risklimits.shared.LogSafe;
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
 * Both listeners' Kafka error policy, in one place. Every failure ends in a retry or a dead letter,
 * never a skip (spring-kafka's default recoverer would log and move on): a failure of the database or
 * the broker is retried with growing pauses until it passes, holding the partition's offset; a failure
 * tied to one transaction record is retried a few times and then dead-lettered, so that record cannot
 * stall its partition. Archive commands are read strictly and each is answered, so what fails there is
 * the infrastructure: retried until it passes.
 */
@Configuration(proxyBeanMethods = false)
class ListenerErrorPolicy {

    private static final Logger log = LoggerFactory.getLogger(ListenerErrorPolicy.class);

    /** The decider's: a poll at a time, its offsets committed once its decisions are confirmed. */
    @Bean
    @SuppressWarnings({"unchecked", "rawtypes"})
    ConcurrentKafkaListenerContainerFactory<byte[], byte[]> deciderContainerFactory(
            ConcurrentKafkaListenerContainerFactoryConfigurer configurer,
            ConsumerFactory<Object, Object> consumerFactory,
            DeadLetterPublisher deadLetters,
            KafkaErrorProperties properties) {
        ConcurrentKafkaListenerContainerFactory factory = new ConcurrentKafkaListenerContainerFactory<>();
        configurer.configure(factory, consumerFactory);
        factory.setBatchListener(true);
        factory.getContainerProperties().setAckMode(AckMode.BATCH);
        // The poll's decisions are on the decisions topic before its offsets are committed (the listener
        // waits for every send); the commit itself need not hold up the next poll. A commit that is lost
        // (a crash, a rebalance) redelivers records whose decisions are stored: they are answered again
        // with the stored decision, marked replayed.
        factory.getContainerProperties().setSyncCommits(false);
        DefaultErrorHandler handler = new DefaultErrorHandler(
                (record, failure) -> deadLetter(deadLetters, properties, record, failure),
                new FixedBackOff(properties.recordRetryBackoff().toMillis(), properties.recordRetries()));
        handler.setBackOffFunction((record, failure) ->
                FailureKind.of(failure) == FailureKind.INFRASTRUCTURE ? untilItPasses(properties) : null);
        handler.setCommitRecovered(true);
        factory.setCommonErrorHandler(handler);
        return factory;
    }

    /** The archiver's: a command at a time, never skipped. */
    @Bean
    @SuppressWarnings({"unchecked", "rawtypes"})
    ConcurrentKafkaListenerContainerFactory<byte[], byte[]> archiverContainerFactory(
            ConcurrentKafkaListenerContainerFactoryConfigurer configurer,
            ConsumerFactory<Object, Object> consumerFactory,
            KafkaErrorProperties properties) {
        ConcurrentKafkaListenerContainerFactory factory = new ConcurrentKafkaListenerContainerFactory<>();
        configurer.configure(factory, consumerFactory);
        factory.setCommonErrorHandler(new DefaultErrorHandler(
                (record, failure) -> {
                    throw new IllegalStateException("archive command not handled", failure);
                },
                untilItPasses(properties)));
        return factory;
    }

    private static ExponentialBackOff untilItPasses(KafkaErrorProperties properties) {
        ExponentialBackOff backOff =
                new ExponentialBackOff(properties.infrastructureBackoffInitial().toMillis(), 2.0);
        backOff.setMaxInterval(properties.infrastructureBackoffMax().toMillis());
        return backOff;
    }

    @SuppressWarnings("unchecked")
    private static void deadLetter(
            DeadLetterPublisher deadLetters,
            KafkaErrorProperties properties,
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
                    .publishAfterRetries((ConsumerRecord<byte[], byte[]>) record, cause)
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
