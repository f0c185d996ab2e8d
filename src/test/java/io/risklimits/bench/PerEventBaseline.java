package io.risklimits.bench;

import io.risklimits.decider.PollDecider;
import io.risklimits.decision.Decision;
import io.risklimits.decision.ReadResult;
import io.risklimits.decision.TransactionEventReader;
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
 * The benchmark's baseline, the seed's design: each valid event of a poll decided in a transaction of
 * its own ({@link PerEventDecisionStore}), in place of the production {@link PollDecider}. Given to
 * the service as an extra configuration source (not a component: no other test sees it); everything
 * else, the listener, the publishing and the offsets, is the production service's.
 */
class PerEventBaseline {

    @Bean
    @Primary
    PollDecider perEventDecider(
            TransactionEventReader reader,
            LimitCatalog limits,
            DataSource dataSource,
            PlatformTransactionManager transactionManager,
            DecisionStoreMetrics metrics) {
        PerEventDecisionStore store = new PerEventDecisionStore(dataSource, transactionManager, metrics);
        return records -> decideEachValidEvent(records, reader, limits, store);
    }

    private static Map<Integer, Decision> decideEachValidEvent(
            List<ConsumerRecord<byte[], byte[]>> records,
            TransactionEventReader reader,
            LimitCatalog limits,
            PerEventDecisionStore store) {
        Map<Integer, Decision> decided = new HashMap<>();
        for (int i = 0; i < records.size(); i++) {
            if (reader.read(records.get(i).value()) instanceof ReadResult.Valid valid) {
                decided.put(
                        i,
                        store.decide(
                                valid.event(), limits.limitsFor(valid.event().businessKey())));
            }
        }
        return decided;
    }
}
