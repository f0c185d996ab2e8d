package io.risklimits.decider;

import io.risklimits.decision.Decision;
import io.risklimits.decision.ReadResult;
import io.risklimits.decision.store.BatchDecisionStore;
import io.risklimits.decision.store.DecisionStoreMetrics;
import io.risklimits.decision.store.PerEventDecisionStore;
import io.risklimits.limits.LimitCatalog;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The benchmark's baseline, one transaction per event: each valid event of a poll decided alone
 * ({@link PerEventDecisionStore}, with its own statements), overriding the production {@link
 * BatchDecider} bean; the poll's INVALID events are left to the listener, which files them one by one
 * after the valid ones. Given to the service as an extra configuration source (not a component: no
 * other test sees it); everything else, the listener, the publishing and the offsets, is the
 * production service's.
 */
public final class PerEventBaseline {

    @Bean
    @Primary
    BatchDecider perEventDecider(
            BatchDecisionStore store,
            LimitCatalog limits,
            RecordKeyCheck keyCheck,
            DataSource dataSource,
            PlatformTransactionManager transactionManager,
            DecisionStoreMetrics metrics) {
        PerEventDecisionStore perEvent = new PerEventDecisionStore(dataSource, transactionManager, metrics);
        return new BatchDecider(store, limits, keyCheck) {
            @Override
            Map<Integer, Decision> decideInOrder(List<ConsumerRecord<byte[], byte[]>> records, List<ReadResult> reads) {
                return decideEachValidEvent(reads, limits, perEvent);
            }
        };
    }

    private static Map<Integer, Decision> decideEachValidEvent(
            List<ReadResult> reads, LimitCatalog limits, PerEventDecisionStore store) {
        Map<Integer, Decision> decided = new HashMap<>();
        for (int i = 0; i < reads.size(); i++) {
            if (reads.get(i) instanceof ReadResult.Valid valid) {
                decided.put(
                        i,
                        store.decide(
                                valid.event(), limits.limitsFor(valid.event().businessKey())));
            }
        }
        return decided;
    }
}
