package io.risklimits.decision;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Lock-and-decide: each decision is one READ COMMITTED transaction that first takes the
 * transaction-scoped advisory lock of the business key. Every statement after the lock sees all
 * decisions committed before it for that key, so check-then-apply cannot be raced (write skew).
 * REPEATABLE READ would be wrong here: its snapshot is taken before the lock is granted.
 */
@Service
public class DecisionStore {

    private static final String LOCK_BUSINESS_KEY = """
            SELECT pg_advisory_xact_lock(risk_business_key_hash(:entityId, :channel, :direction))
            """;

    private static final String DATABASE_CLOCK = "SELECT clock_timestamp()";

    private final JdbcClient jdbc;
    private final TransactionTemplate readCommitted;
    private final RequestLogRepository requestLog;
    private final HourlyUsageRepository hourlyUsage;
    private final DeciderMetrics metrics;

    DecisionStore(
            JdbcClient jdbc,
            PlatformTransactionManager transactionManager,
            RequestLogRepository requestLog,
            HourlyUsageRepository hourlyUsage,
            DeciderMetrics metrics) {
        this.jdbc = jdbc;
        this.readCommitted = new TransactionTemplate(transactionManager);
        this.readCommitted.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
        this.requestLog = requestLog;
        this.hourlyUsage = hourlyUsage;
        this.metrics = metrics;
    }

    /** Decides a valid event against the limits, or returns the decision already made for its dedupe_id. */
    public Decision decide(TransactionEvent event, Limits limits) {
        BusinessKey key = event.businessKey();
        return metrics.timeTransaction(() -> readCommitted.execute(status -> {
            lock(key);
            Optional<Decision> earlier = requestLog.find(key, event.dedupeId());
            if (earlier.isPresent()) {
                return earlier.get().asReplay();
            }
            // read after the lock, so decisions of one key are made in clock order
            Instant decidedAt = databaseClock();
            Instant bucket = decidedAt.truncatedTo(ChronoUnit.HOURS);
            Usage usage = hourlyUsage.usageUpTo(key, bucket);
            Outcome outcome = LimitPolicy.decide(event.amount(), usage, limits);
            if (outcome.isApproved()) {
                hourlyUsage.addToBucket(key, bucket, event.amount());
            }
            Decision decision = Decision.limitChecked(event, outcome, usage, limits, bucket, decidedAt);
            requestLog.insert(key, decision);
            return decision;
        }));
    }

    /** Files an INVALID decision, or returns the decision already made for its dedupe_id. */
    public Decision recordInvalid(UUID dedupeId, EventFields fields, List<FieldError> errors) {
        Optional<BusinessKey> businessKey = fields.businessKey();
        if (businessKey.isEmpty()) {
            return readCommitted.execute(status -> requestLog.insertKeylessIfNew(dedupeId, fields, errors));
        }
        BusinessKey key = businessKey.get();
        return readCommitted.execute(status -> {
            lock(key);
            Optional<Decision> earlier = requestLog.find(key, dedupeId);
            if (earlier.isPresent()) {
                return earlier.get().asReplay();
            }
            Decision decision = Decision.invalid(dedupeId, fields, errors, databaseClock());
            requestLog.insert(key, decision);
            return decision;
        });
    }

    private void lock(BusinessKey key) {
        metrics.timeLocking(() -> jdbc.sql(LOCK_BUSINESS_KEY)
                .param("entityId", key.entityId())
                .param("channel", key.channel())
                .param("direction", key.direction().name())
                .query(rs -> {}));
    }

    private Instant databaseClock() {
        return jdbc.sql(DATABASE_CLOCK).query(OffsetDateTime.class).single().toInstant();
    }
}
