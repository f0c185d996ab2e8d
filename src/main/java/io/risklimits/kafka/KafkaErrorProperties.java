package io.risklimits.kafka;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How both listeners (decider and archiver) wait for the broker and retry what failed.
 *
 * @param sendTimeout how long a listener waits for the broker to confirm what it sent (a poll's decisions,
 *     a dead letter, an archive result) before the record is retried
 * @param recordRetries tries after the first for a failure tied to one record, before it is dead-lettered
 * @param recordRetryBackoff the pause before each of those tries
 * @param infrastructureBackoffInitial the first pause before retrying a failure of the database or the
 *     broker; such a failure is retried until it passes, holding the partition's offset
 * @param infrastructureBackoffMax the longest of those pauses (each is twice the one before)
 */
@ConfigurationProperties("risk.kafka")
public record KafkaErrorProperties(
        @DefaultValue("60s") Duration sendTimeout,
        @DefaultValue("2") int recordRetries,
        @DefaultValue("1s") Duration recordRetryBackoff,
        @DefaultValue("200ms") Duration infrastructureBackoffInitial,
        @DefaultValue("30s") Duration infrastructureBackoffMax) {

    public KafkaErrorProperties {
        if (recordRetries < 0) {
            throw new IllegalArgumentException("risk.kafka.record-retries must be 0 or more, not " + recordRetries);
        }
        if (sendTimeout.isNegative() || sendTimeout.isZero()) {
            throw new IllegalArgumentException("risk.kafka.send-timeout must be positive, not " + sendTimeout);
        }
    }
}
