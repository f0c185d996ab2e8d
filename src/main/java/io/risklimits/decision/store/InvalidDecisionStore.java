package io.risklimits.decision.store;

import io.risklimits.decision.Decision;
import io.risklimits.decision.EventFields;
import io.risklimits.decision.FieldError;
import java.util.List;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Files the INVALID events whose business key could not be read, one per READ COMMITTED transaction,
 * once per dedupe_id in the keyless log: the first decision filed for a dedupe_id is the one every
 * redelivery gets back. An INVALID event with a readable business key is filed under it, in its poll's
 * order, by {@link BatchDecisionStore}.
 */
@Service
public class InvalidDecisionStore {

    private final TransactionTemplate readCommitted;
    private final KeylessRequestLog keylessLog;

    InvalidDecisionStore(PlatformTransactionManager transactionManager, KeylessRequestLog keylessLog) {
        this.readCommitted = new TransactionTemplate(transactionManager);
        this.readCommitted.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
        this.keylessLog = keylessLog;
    }

    /**
     * Files an INVALID decision for an event without a readable business key, or returns the decision
     * already filed for its dedupe_id.
     */
    public Decision recordKeyless(UUID dedupeId, EventFields fields, List<FieldError> errors) {
        if (fields.businessKey().isPresent()) {
            throw new IllegalArgumentException("an event with a readable business key is filed under it");
        }
        return readCommitted.execute(status -> keylessLog.insertIfNew(dedupeId, fields, errors));
    }
}
