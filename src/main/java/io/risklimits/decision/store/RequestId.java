package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.ReadResult;
import io.risklimits.decision.TransactionEvent;
import java.util.UUID;

/** What the request log is keyed by: a dedupe_id is unique per business key. */
record RequestId(BusinessKey businessKey, UUID dedupeId) {

    static RequestId of(TransactionEvent event) {
        return new RequestId(event.businessKey(), event.dedupeId());
    }

    /** A valid event's, or an INVALID one's that has a readable business key; refuses any other. */
    static RequestId of(ReadResult event) {
        if (event instanceof ReadResult.Valid valid) {
            return of(valid.event());
        }
        if (event instanceof ReadResult.Invalid invalid
                && invalid.fields().businessKey().isPresent()) {
            return new RequestId(invalid.fields().businessKey().get(), invalid.dedupeId());
        }
        throw new IllegalArgumentException(
                "not filed under a business key: " + event.getClass().getSimpleName());
    }

    static RequestId of(Decision decision) {
        return new RequestId(decision.fields().businessKey().orElseThrow(), decision.dedupeId());
    }
}
