package io.risklimits.decider;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.shared.LogSafe;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * A record whose Kafka key is not the business key of its payload is still decided from its payload
 * (the lock, not the partitioning, keeps that correct), but its producer should hear of it.
 */
@Component
class RecordKeyCheck {

    private static final Logger log = LoggerFactory.getLogger(RecordKeyCheck.class);

    private final Counter mismatches;

    RecordKeyCheck(MeterRegistry meters) {
        this.mismatches = Counter.builder("risk.decider.record.key.mismatch")
                .description("records whose Kafka key differs from the business key of their payload")
                .register(meters);
    }

    void warnOnMismatch(ConsumerRecord<byte[], byte[]> record, TransactionEvent event) {
        String businessKey = event.businessKey().recordKey();
        if (record.key() == null || !Arrays.equals(record.key(), businessKey.getBytes(StandardCharsets.UTF_8))) {
            mismatches.increment();
            log.warn(
                    "Record {}-{}@{} has key {} but its payload's business key is {}",
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    printable(record.key()),
                    businessKey);
        }
    }

    private static String printable(byte[] key) {
        return key == null ? "null" : LogSafe.text(new String(key, StandardCharsets.UTF_8));
    }
}
