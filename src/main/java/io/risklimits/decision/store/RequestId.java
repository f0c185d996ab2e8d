package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.TransactionEvent;
import java.util.UUID;

/** What the request log is keyed by: a dedupe_id is unique per business key. */
record RequestId(BusinessKey businessKey, UUID dedupeId) {

    static RequestId of(TransactionEvent event) {
        return new RequestId(event.businessKey(), event.dedupeId());
    }

    static RequestId of(Decision decision) {
        return new RequestId(decision.fields().businessKey().orElseThrow(), decision.dedupeId());
    }
}
