package io.risklimits.decider;

import io.risklimits.decision.Decision;
import io.risklimits.decision.ReadResult;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.TransactionEventReader;
import io.risklimits.decision.store.BatchDecisionStore;
import io.risklimits.decision.store.InvalidDecisionStore;
import io.risklimits.kafka.DeadLetterPublisher;
import io.risklimits.limits.LimitCatalog;
import io.risklimits.shared.LogSafe;
import java.util.List;
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
    private final BatchDecisionStore store;
    private final InvalidDecisionStore invalidDecisions;
    private final LimitCatalog limits;
    private final DecisionPublisher decisions;
    private final DeadLetterPublisher deadLetters;
    private final RecordKeyCheck keyCheck;

    RecordDecider(
            TransactionEventReader reader,
            BatchDecisionStore store,
            InvalidDecisionStore invalidDecisions,
            LimitCatalog limits,
            DecisionPublisher decisions,
            DeadLetterPublisher deadLetters,
            RecordKeyCheck keyCheck) {
        this.reader = reader;
        this.store = store;
        this.invalidDecisions = invalidDecisions;
        this.limits = limits;
        this.decisions = decisions;
        this.deadLetters = deadLetters;
        this.keyCheck = keyCheck;
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
        log.warn(
                "Dead-lettering unreadable record {}-{}@{}: {}",
                record.topic(),
                record.partition(),
                record.offset(),
                LogSafe.text(problem));
        return deadLetters.publish(record, DeadLetterPublisher.UNREADABLE_RECORD, problem);
    }

    private CompletableFuture<?> decideValid(ConsumerRecord<byte[], byte[]> record, TransactionEvent event) {
        keyCheck.warnOnMismatch(record, event);
        // a batch of one: the same statements, and the same guarantees, as a whole poll's
        Decision decision = store.decideAll(List.of(event), limits::limitsFor).get(0);
        return publish(record, decision);
    }

    /**
     * Publishes a decision made for this record (alone or in a batch); for a reused dedupe_id with other
     * content, also a copy of the record to the dead-letter topic, so its producer hears of it.
     */
    CompletableFuture<?> publish(ConsumerRecord<byte[], byte[]> record, Decision decision) {
        CompletableFuture<?> published = decisions.publish(decision, record);
        if (decision.dedupeConflict().isEmpty()) {
            return published;
        }
        log.warn(
                "Record {}-{}@{} reuses dedupe_id {} with other {}: answered with the stored decision",
                record.topic(),
                record.partition(),
                record.offset(),
                decision.dedupeId(),
                decision.dedupeConflict());
        return CompletableFuture.allOf(
                published,
                deadLetters.publish(
                        record,
                        DeadLetterPublisher.DEDUPE_CONFLICT,
                        "dedupe_id " + decision.dedupeId() + " was decided already for an event with other "
                                + String.join(", ", decision.dedupeConflict())));
    }

    private CompletableFuture<?> decideInvalid(ConsumerRecord<byte[], byte[]> record, ReadResult.Invalid invalid) {
        Decision decision = invalidDecisions.recordInvalid(invalid.dedupeId(), invalid.fields(), invalid.errors());
        String summary = invalid.errors().stream()
                .map(error -> error.field() + " " + error.message())
                .collect(Collectors.joining("; "));
        return CompletableFuture.allOf(
                decisions.publish(decision, record),
                deadLetters.publish(record, DeadLetterPublisher.INVALID_EVENT, summary));
    }
}
