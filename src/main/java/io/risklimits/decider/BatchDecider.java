package io.risklimits.decider;

import io.risklimits.decision.Decision;
import io.risklimits.decision.ReadResult;
import io.risklimits.decision.store.BatchDecisionStore;
import io.risklimits.kafka.FailureKind;
import io.risklimits.limits.LimitCatalog;
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
 * Decides the events of a poll that are filed under a business key together, in poll order ({@link
 * BatchDecisionStore}): the valid ones and the INVALID ones whose key was read. INVALID events without a
 * readable key and unreadable records are left to {@link RecordDecider}, one by one: they are rare, and
 * no event filed under a key can meet them.
 */
@Component
class BatchDecider {

    private static final Logger log = LoggerFactory.getLogger(BatchDecider.class);

    private final BatchDecisionStore store;
    private final LimitCatalog limits;
    private final RecordKeyCheck keyCheck;

    BatchDecider(BatchDecisionStore store, LimitCatalog limits, RecordKeyCheck keyCheck) {
        this.store = store;
        this.limits = limits;
        this.keyCheck = keyCheck;
    }

    /**
     * The committed decisions of the poll's valid events and of its INVALID events that have a readable
     * business key, by index in the poll; reads holds what reading each record gave, read once. The
     * listener decides the records missing from it one by one: INVALID events without a readable key,
     * unreadable records, and all of them when the batch failed for a reason tied to its records
     * rather than to the infrastructure (then the answer is empty), so one bad record is retried and
     * dead-lettered alone.
     */
    Map<Integer, Decision> decideInOrder(List<ConsumerRecord<byte[], byte[]>> records, List<ReadResult> reads) {
        List<Integer> indexes = new ArrayList<>();
        List<ReadResult> events = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            ReadResult read = reads.get(i);
            if (read instanceof ReadResult.Valid valid) {
                keyCheck.warnOnMismatch(records.get(i), valid.event());
            }
            if (RecordDecider.isFiledUnderItsKey(read)) {
                indexes.add(i);
                events.add(read);
            }
        }
        List<Decision> decisions;
        try {
            decisions = store.decideInOrder(events, limits.snapshot());
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
