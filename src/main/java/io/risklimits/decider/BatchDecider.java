package io.risklimits.decider;

import io.risklimits.decision.Decision;
import io.risklimits.decision.ReadResult;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.TransactionEventReader;
import io.risklimits.decision.store.BatchDecisionStore;
import io.risklimits.limits.LimitCatalog;
import io.risklimits.shared.FailureKind;
import io.risklimits.shared.LogSafe;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Decides the valid events of a poll together ({@link BatchDecisionStore}). Invalid and unreadable
 * records are left to {@link RecordDecider}, one by one: they are rare and each has its own answer.
 */
@Component
class BatchDecider implements PollDecider {

    private static final Logger log = LoggerFactory.getLogger(BatchDecider.class);

    private final TransactionEventReader reader;
    private final BatchDecisionStore store;
    private final LimitCatalog limits;
    private final RecordKeyCheck keyCheck;

    BatchDecider(
            TransactionEventReader reader, BatchDecisionStore store, LimitCatalog limits, RecordKeyCheck keyCheck) {
        this.reader = reader;
        this.store = store;
        this.limits = limits;
        this.keyCheck = keyCheck;
    }

    /**
     * Empty when the batch failed for a reason tied to its records rather than to the infrastructure:
     * the listener then decides record by record, so one bad record is retried and dead-lettered alone.
     */
    @Override
    public Map<Integer, Decision> decideValidEvents(List<ConsumerRecord<byte[], byte[]>> records) {
        List<Integer> indexes = new ArrayList<>();
        List<TransactionEvent> events = new ArrayList<>();
        List<BatchDecisionStore.InvalidBefore> invalid = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            ReadResult read = reader.read(records.get(i).value());
            if (read instanceof ReadResult.Valid valid) {
                keyCheck.warnOnMismatch(records.get(i), valid.event());
                indexes.add(i);
                events.add(valid.event());
            } else if (read instanceof ReadResult.Invalid filedAfter
                    && filedAfter.fields().businessKey().isPresent()) {
                // filed as INVALID after the batch, but earlier in the poll than the events after it
                invalid.add(new BatchDecisionStore.InvalidBefore(
                        events.size(), filedAfter.fields().businessKey().get(), filedAfter.dedupeId()));
            }
        }
        List<Decision> decisions;
        try {
            decisions = store.decideAll(events, invalid, limits::limitsFor);
        } catch (RuntimeException failure) {
            if (FailureKind.of(failure) == FailureKind.INFRASTRUCTURE) {
                throw failure;
            }
            // a database error can echo values of the batch's records: one escaped, bounded line
            log.warn(
                    "A batch of {} events failed; deciding them one by one: {}",
                    events.size(),
                    LogSafe.text(failure.toString()));
            return Map.of();
        }
        Map<Integer, Decision> byIndex = new HashMap<>();
        for (int i = 0; i < indexes.size(); i++) {
            byIndex.put(indexes.get(i), decisions.get(i));
        }
        return byIndex;
    }
}
