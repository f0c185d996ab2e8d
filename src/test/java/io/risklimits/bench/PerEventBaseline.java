package io.risklimits.bench;

import io.risklimits.decider.PollDecider;
import io.risklimits.decision.Decision;
import io.risklimits.decision.ReadResult;
import io.risklimits.decision.store.DecisionStoreMetrics;
import io.risklimits.decision.store.PerEventDecisionStore;
import io.risklimits.limits.LimitCatalog;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The benchmark's baseline, the seed's design: each valid event of a poll decided in a transaction of
 * its own ({@link PerEventDecisionStore}), in place of the production {@link PollDecider}; the poll's
 * INVALID events are left to the listener, which files them one by one after the valid ones. Given to
 * the service as an extra configuration source (not a component: no other test sees it); everything
 * else, the listener, the publishing and the offsets, is the production service's.
 */
class PerEventBaseline {

    @Bean
    @Primary
    PollDecider perEventDecider(
            LimitCatalog limits,
            DataSource dataSource,
            PlatformTransactionManager transactionManager,
            DecisionStoreMetrics metrics) {
        PerEventDecisionStore store = new PerEventDecisionStore(dataSource, transactionManager, metrics);
        return (records, reads) -> decideEachValidEvent(reads, limits, store);
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
