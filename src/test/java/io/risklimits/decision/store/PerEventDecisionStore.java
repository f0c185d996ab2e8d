package io.risklimits.decision.store;

import static io.risklimits.decision.store.SqlTime.timestamptz;
import static io.risklimits.decision.store.SqlTime.utcTimestamp;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.DecisionJson;
import io.risklimits.decision.EventFields;
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
 * Lock-and-decide one event at a time, the benchmark's baseline: one READ COMMITTED transaction per
 * event that takes the business key's advisory lock, looks its dedupe_id up, sums the key's buckets of
 * each window ({@link SummedUsage}), decides, adds to the bucket and files the decision. It gives the
 * same decisions as the production store, at five round trips per event.
 */
public final class PerEventDecisionStore {

    private static final String LOCK_BUSINESS_KEY = """
            SELECT pg_advisory_xact_lock(risk_business_key_hash(:entityId, :channel, :direction))
            """;

    private static final String DATABASE_CLOCK = "SELECT clock_timestamp()";

    private static final String INSERT_DECISION = """
            INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                          decision, reason, amount, currency, occurred_at,
                                          usage, limits, errors, decided_at,
                                          type, reverses, released_amount, released_count, remaining,
                                          shadow_decision, shadow_reason)
            VALUES (:entityId, :channel, :direction, :dedupeId, :bucket,
                    :decision, :reason, :amount, :currency, :occurredAt,
                    CAST(:usage AS json), CAST(:limits AS json), CAST(:errors AS jsonb), :decidedAt,
                    :type, :reverses, :releasedAmount, :releasedCount, :remaining,
                    :shadowDecision, :shadowReason)
            """;

    private final JdbcClient jdbc;
    private final TransactionTemplate readCommitted;
    private final FiledDecisions filed;
    private final SummedUsage summed;
    private final DecisionStoreMetrics metrics;

    public PerEventDecisionStore(
            DataSource dataSource, PlatformTransactionManager transactionManager, DecisionStoreMetrics metrics) {
        this.jdbc = JdbcClient.create(dataSource);
        this.readCommitted = new TransactionTemplate(transactionManager);
        this.readCommitted.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
        this.filed = new FiledDecisions(jdbc);
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
            Optional<Decision> earlier = filed.find(key, event.dedupeId());
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
            insert(key, decision);
            return decision;
        }));
    }

    /** Files a decision under its business key, one row (the audit log's columns, as the store fills them). */
    private void insert(BusinessKey key, Decision decision) {
        EventFields fields = decision.fields();
        Outcome shadow = decision.shadow();
        jdbc.sql(INSERT_DECISION)
                .param("entityId", key.entityId())
                .param("channel", key.channel())
                .param("direction", key.direction().name())
                .param("dedupeId", decision.dedupeId())
                .param("bucket", utcTimestamp(decision.bucketTs()))
                .param("decision", decision.verdict().name())
                .param(
                        "reason",
                        decision.reason() == null ? null : decision.reason().name())
                .param("amount", fields.amount())
                .param("currency", fields.currency())
                .param("occurredAt", timestamptz(fields.occurredAt()))
                .param("usage", DecisionJson.usage(decision.usage(), decision.limits()))
                .param("limits", DecisionJson.limits(decision.limits()))
                .param("errors", null)
                .param("decidedAt", timestamptz(decision.decidedAt()))
                .param("type", fields.type() == null ? null : fields.type().name())
                .param("reverses", fields.reverses())
                .param(
                        "releasedAmount",
                        decision.released() == null ? null : decision.released().amount())
                .param(
                        "releasedCount",
                        decision.released() == null
                                ? null
                                : (int) decision.released().count())
                .param("remaining", decision.remaining())
                .param(
                        "shadowDecision",
                        shadow == null ? null : shadow.verdict().name())
                .param(
                        "shadowReason",
                        shadow == null || shadow.reason() == null
                                ? null
                                : shadow.reason().name())
                .update();
    }
}
