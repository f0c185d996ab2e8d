package io.risklimits.kafka;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.risklimits.shared.LogSafe;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import org.springframework.stereotype.Component;

/**
 * Copies a transactions-topic record, byte for byte and with its original key, to the dead-letter
 * topic, with headers that say what was wrong and where the record came from.
 */
@Component
public class DeadLetterPublisher {

    public static final String ERROR_CLASS = "risk.error.class";
    public static final String ERROR_MESSAGE = "risk.error.message";
    public static final String ORIGINAL_TOPIC = "risk.original.topic";
    public static final String ORIGINAL_PARTITION = "risk.original.partition";
    public static final String ORIGINAL_OFFSET = "risk.original.offset";

    /** Why a record is dead-lettered: its copy's risk.error.class header names the kind. */
    public enum Kind {
        /** The record could not be read as an event: not UTF-8 JSON, or no readable dedupe_id. */
        UNREADABLE_RECORD("unreadable"),
        /** The record was answered with an INVALID decision; this is the copy for operators. */
        INVALID_EVENT("invalid"),
        /**
         * The record reused a dedupe_id already decided for an event with other content (type, amount,
         * currency or reverses): answered with the stored decision; this is the copy for operators.
         */
        DEDUPE_CONFLICT("dedupe_conflict");

        private final String metricKind;

        Kind(String metricKind) {
            this.metricKind = metricKind;
        }
    }

    /** The risk.dead.letters kind of a record whose failure outlasted its retries. */
    private static final String RETRIES_EXHAUSTED = "retries_exhausted";

    private final KafkaTemplate<byte[], byte[]> kafka;
    private final TopicProperties topics;
    private final MeterRegistry meters;

    DeadLetterPublisher(KafkaTemplate<byte[], byte[]> kafka, TopicProperties topics, MeterRegistry meters) {
        this.kafka = kafka;
        this.topics = topics;
        this.meters = meters;
    }

    /** Copies a record dead-lettered for what it is; the header names the kind, the message says more. */
    public CompletableFuture<SendResult<byte[], byte[]>> publish(
            ConsumerRecord<byte[], byte[]> record, Kind kind, String errorMessage) {
        return publish(record, kind.name(), errorMessage, kind.metricKind);
    }

    /** Copies a record whose failure outlasted its retries; the header names the failure's class. */
    public CompletableFuture<SendResult<byte[], byte[]>> publishAfterRetries(
            ConsumerRecord<byte[], byte[]> record, Throwable failure) {
        return publish(record, failure.getClass().getName(), String.valueOf(failure.getMessage()), RETRIES_EXHAUSTED);
    }

    private CompletableFuture<SendResult<byte[], byte[]>> publish(
            ConsumerRecord<byte[], byte[]> record, String errorClass, String errorMessage, String metricKind) {
        Headers headers = new RecordHeaders();
        headers.add(ERROR_CLASS, utf8(errorClass));
        headers.add(ERROR_MESSAGE, utf8(LogSafe.text(errorMessage)));
        headers.add(ORIGINAL_TOPIC, utf8(record.topic()));
        headers.add(ORIGINAL_PARTITION, utf8(Integer.toString(record.partition())));
        headers.add(ORIGINAL_OFFSET, utf8(Long.toString(record.offset())));
        return kafka.send(new ProducerRecord<>(topics.deadLetter(), null, null, record.key(), record.value(), headers))
                .whenComplete((sent, failure) -> {
                    if (failure == null) {
                        counter(metricKind).increment();
                    }
                });
    }

    /** Dead letters by kind: unreadable records, invalid events, dedupe conflicts, records whose retries ran out. */
    private Counter counter(String metricKind) {
        return Counter.builder("risk.dead.letters")
                .description("records copied to the dead-letter topic, confirmed by the broker")
                .tag("kind", metricKind)
                .register(meters);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
