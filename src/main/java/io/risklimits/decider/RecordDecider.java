package io.risklimits.decider;

import io.risklimits.decision.Decision;
import io.risklimits.decision.ReadResult;
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
 * Takes one record of the transactions topic to its end, from what reading it gave (it is read once per
 * poll): a decision in the database and on the decisions topic, plus a dead-letter copy when invalid or
 * a dedupe conflict; or, when unreadable, a dead letter only. Returns when the database work is
 * committed; the future completes when every send is confirmed.
 */
@Component
class RecordDecider {

    private static final Logger log = LoggerFactory.getLogger(RecordDecider.class);

    private final BatchDecisionStore store;
    private final InvalidDecisionStore keylessDecisions;
    private final LimitCatalog limits;
    private final DecisionPublisher decisions;
    private final DeadLetterPublisher deadLetters;
    private final RecordKeyCheck keyCheck;

    RecordDecider(
            BatchDecisionStore store,
            InvalidDecisionStore keylessDecisions,
            LimitCatalog limits,
            DecisionPublisher decisions,
            DeadLetterPublisher deadLetters,
            RecordKeyCheck keyCheck) {
        this.store = store;
        this.keylessDecisions = keylessDecisions;
        this.limits = limits;
        this.decisions = decisions;
        this.deadLetters = deadLetters;
        this.keyCheck = keyCheck;
    }

    /** A valid event, or an INVALID one whose business key was read: decided under that key's lock. */
    static boolean isFiledUnderItsKey(ReadResult read) {
        return read instanceof ReadResult.Valid
                || read instanceof ReadResult.Invalid invalid
                        && invalid.fields().businessKey().isPresent();
    }

    /** Decides the record alone (its poll's batch did not), from what reading it gave. */
    CompletableFuture<?> decide(ConsumerRecord<byte[], byte[]> record, ReadResult read) {
        if (read instanceof ReadResult.Valid valid) {
            keyCheck.warnOnMismatch(record, valid.event());
        }
        if (isFiledUnderItsKey(read)) {
            // a batch of one: the same statements, and the same guarantees, as a whole poll's
            Decision decision =
                    store.decideInOrder(List.of(read), limits.snapshot()).get(0);
            return publish(record, read, decision);
        }
        if (read instanceof ReadResult.Invalid invalid) {
            Decision decision = keylessDecisions.recordKeyless(invalid.dedupeId(), invalid.fields(), invalid.errors());
            return publish(record, read, decision);
        }
        String problem = ((ReadResult.Unreadable) read).problem();
        log.warn(
                "Dead-lettering unreadable record {}-{}@{}: {}",
                record.topic(),
                record.partition(),
                record.offset(),
                LogSafe.text(problem));
        return deadLetters.publish(record, DeadLetterPublisher.Kind.UNREADABLE_RECORD, problem);
    }

    /**
     * Publishes a decision made for this record (alone or in a batch); for an INVALID event also a copy
     * of the record to the dead-letter topic, and for a reused dedupe_id with other content too, so its
     * producer hears of it.
     */
    CompletableFuture<?> publish(ConsumerRecord<byte[], byte[]> record, ReadResult read, Decision decision) {
        CompletableFuture<?> published = decisions.publish(decision, record);
        if (read instanceof ReadResult.Invalid invalid) {
            String summary = invalid.errors().stream()
                    .map(error -> error.field() + " " + error.message())
                    .collect(Collectors.joining("; "));
            return CompletableFuture.allOf(
                    published, deadLetters.publish(record, DeadLetterPublisher.Kind.INVALID_EVENT, summary));
        }
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
                        DeadLetterPublisher.Kind.DEDUPE_CONFLICT,
                        "dedupe_id " + decision.dedupeId() + " was decided already for an event with other "
                                + String.join(", ", decision.dedupeConflict())));
    }
}
