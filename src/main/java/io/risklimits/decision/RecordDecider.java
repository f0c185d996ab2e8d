package io.risklimits.decision;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.risklimits.RiskProperties;
import io.risklimits.kafka.DeadLetterPublisher;
import io.risklimits.kafka.LogSafe;
import io.risklimits.limits.LimitCatalog;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Takes one record of the transactions topic to its end: a decision in the database and on the
 * decisions topic, plus a dead-letter copy when invalid; or, when unreadable, a dead letter only.
 * Returns when the database work is committed; the future completes when every send is confirmed.
 */
@Component
class RecordDecider {

    private static final Logger log = LoggerFactory.getLogger(RecordDecider.class);

    private final TransactionEventReader reader;
    private final DecisionStore store;
    private final LimitCatalog limits;
    private final DecisionPublisher decisions;
    private final DeadLetterPublisher deadLetters;
    private final Counter keyMismatches;

    RecordDecider(
            RiskProperties properties,
            DecisionStore store,
            LimitCatalog limits,
            DecisionPublisher decisions,
            DeadLetterPublisher deadLetters,
            MeterRegistry meters) {
        this.reader = new TransactionEventReader(
                properties.currency(), properties.maxClockSkew(), Clock.systemUTC());
        this.store = store;
        this.limits = limits;
        this.decisions = decisions;
        this.deadLetters = deadLetters;
        this.keyMismatches = Counter.builder("risk.decider.record.key.mismatch")
                .description("records whose Kafka key differs from the business key of their payload")
                .register(meters);
    }

    CompletableFuture<?> decide(ConsumerRecord<byte[], byte[]> record) {
        ReadResult result = reader.read(record.value());
        if (result instanceof ReadResult.Valid valid) {
            return decideValid(record, valid.event());
        }
        if (result instanceof ReadResult.Invalid invalid) {
            return decideInvalid(record, invalid);
        }
        String problem = ((ReadResult.Unreadable) result).problem();
        log.warn("Dead-lettering unreadable record {}-{}@{}: {}",
                record.topic(), record.partition(), record.offset(), LogSafe.text(problem));
        return deadLetters.publish(record, DeadLetterPublisher.UNREADABLE_RECORD, problem);
    }

    private CompletableFuture<?> decideValid(ConsumerRecord<byte[], byte[]> record, TransactionEvent event) {
        String businessKey = event.businessKey().recordKey();
        if (record.key() == null || !Arrays.equals(record.key(), businessKey.getBytes(StandardCharsets.UTF_8))) {
            // the lock, not the partitioning, keeps this correct; producers should still hear of it
            keyMismatches.increment();
            log.warn("Record {}-{}@{} has key {} but its payload's business key is {}",
                    record.topic(), record.partition(), record.offset(), printable(record.key()), businessKey);
        }
        Decision decision = store.decide(event, limits.limitsFor(event.businessKey()));
        return decisions.publish(decision, record.key());
    }

    private CompletableFuture<?> decideInvalid(ConsumerRecord<byte[], byte[]> record, ReadResult.Invalid invalid) {
        Decision decision = store.recordInvalid(invalid.dedupeId(), invalid.fields(), invalid.errors());
        String summary = invalid.errors().stream()
                .map(error -> error.field() + " " + error.message())
                .collect(Collectors.joining("; "));
        return CompletableFuture.allOf(
                decisions.publish(decision, record.key()),
                deadLetters.publish(record, DeadLetterPublisher.INVALID_EVENT, summary));
    }

    private static String printable(byte[] key) {
        return key == null ? "null" : LogSafe.text(new String(key, StandardCharsets.UTF_8));
    }
}
