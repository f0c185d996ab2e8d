package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.LimitPolicy;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Outcome;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Usage;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The seed's lock-and-decide, kept as the benchmark's baseline: one READ COMMITTED transaction per
 * event that takes the business key's advisory lock, looks its dedupe_id up, sums the key's buckets of
 * each window ({@link SummedUsage}), decides, adds to the bucket and files the decision. It gives the
 * same decisions as the production store, at five round trips per event.
 */
public final class PerEventDecisionStore {

    private static final String LOCK_BUSINESS_KEY = """
            SELECT pg_advisory_xact_lock(risk_business_key_hash(:entityId, :channel, :direction))
            """;

    private static final String DATABASE_CLOCK = "SELECT clock_timestamp()";

    private final JdbcClient jdbc;
    private final TransactionTemplate readCommitted;
    private final RequestLogRepository requestLog;
    private final SummedUsage summed;
    private final DecisionStoreMetrics metrics;

    public PerEventDecisionStore(
            DataSource dataSource, PlatformTransactionManager transactionManager, DecisionStoreMetrics metrics) {
        this.jdbc = JdbcClient.create(dataSource);
        this.readCommitted = new TransactionTemplate(transactionManager);
        this.readCommitted.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
        this.requestLog = new RequestLogRepository(jdbc);
        this.summed = new SummedUsage(dataSource);
        this.metrics = metrics;
    }

    /** Decides a valid event against the limits, or returns the decision already made for its dedupe_id. */
    public Decision decide(TransactionEvent event, Limits limits) {
        BusinessKey key = event.businessKey();
        return metrics.timeTransaction(() -> readCommitted.execute(status -> {
            jdbc.sql(LOCK_BUSINESS_KEY)
                    .param("entityId", key.entityId())
                    .param("channel", key.channel())
                    .param("direction", key.direction().name())
                    .query(rs -> {});
            Optional<Decision> earlier = requestLog.find(key, event.dedupeId());
            if (earlier.isPresent()) {
                return earlier.get().asReplay();
            }
            // read after the lock, so decisions of one key are made in clock order
            Instant decidedAt = jdbc.sql(DATABASE_CLOCK)
                    .query(OffsetDateTime.class)
                    .single()
                    .toInstant();
            Instant bucket = decidedAt.truncatedTo(ChronoUnit.HOURS);
            Usage usage = summed.usageUpTo(key, bucket);
            Outcome outcome = LimitPolicy.decide(event.amount(), usage, limits);
            if (outcome.isApproved()) {
                summed.addToBucket(key, bucket, event.amount());
            }
            Decision decision = Decision.limitChecked(event, outcome, usage, limits, bucket, decidedAt);
            requestLog.insert(key, decision);
            return decision;
        }));
    }
}
