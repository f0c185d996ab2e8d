package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.EventFields;
import io.risklimits.decision.FieldError;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Files INVALID decisions, one event per READ COMMITTED transaction. An event with a readable business
 * key is filed under that key's transaction-scoped advisory lock, so it cannot race a decision of the
 * same dedupe_id; one without is filed once per dedupe_id in the keyless log. Either way the first
 * decision filed for a dedupe_id is the one every redelivery gets back.
 */
@Service
public class InvalidDecisionStore {

    private static final String LOCK_BUSINESS_KEY = """
            SELECT pg_advisory_xact_lock(risk_business_key_hash(:entityId, :channel, :direction))
            """;

    private static final String DATABASE_CLOCK = "SELECT clock_timestamp()";

    private final JdbcClient jdbc;
    private final TransactionTemplate readCommitted;
    private final RequestLogRepository requestLog;

    InvalidDecisionStore(
            JdbcClient jdbc, PlatformTransactionManager transactionManager, RequestLogRepository requestLog) {
        this.jdbc = jdbc;
        this.readCommitted = new TransactionTemplate(transactionManager);
        this.readCommitted.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
        this.requestLog = requestLog;
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
        jdbc.sql(LOCK_BUSINESS_KEY)
                .param("entityId", key.entityId())
                .param("channel", key.channel())
                .param("direction", key.direction().name())
                .query(rs -> {});
    }

    private Instant databaseClock() {
        return jdbc.sql(DATABASE_CLOCK).query(OffsetDateTime.class).single().toInstant();
    }
}
