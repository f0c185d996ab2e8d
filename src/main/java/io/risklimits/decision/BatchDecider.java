package io.risklimits.decision;

import io.risklimits.kafka.FailureKind;
import io.risklimits.kafka.LogSafe;
import io.risklimits.limits.LimitCatalog;
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
class BatchDecider {

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
     * The committed decisions of the poll's valid events, by index in the poll. Empty when the batch
     * failed for a reason tied to its records rather than to the infrastructure: the caller then
     * decides record by record, so one bad record is retried and dead-lettered alone.
     */
    Map<Integer, Decision> decideValidEvents(List<ConsumerRecord<byte[], byte[]>> records) {
        List<Integer> indexes = new ArrayList<>();
        List<TransactionEvent> events = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            if (reader.read(records.get(i).value()) instanceof ReadResult.Valid valid) {
                keyCheck.warnOnMismatch(records.get(i), valid.event());
                indexes.add(i);
                events.add(valid.event());
            }
        }
        List<Decision> decisions;
        try {
            decisions = store.decideAll(events, limits::limitsFor);
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
