package io.risklimits.decision;

import java.util.List;
import java.util.UUID;

/** What reading one record of the transactions topic gave. */
public sealed interface ReadResult {

    /** Every rule of the contract holds. */
    record Valid(TransactionEvent event) implements ReadResult {}

    /** The dedupe_id is readable but some other field breaks a rule: answered with an INVALID decision. */
    record Invalid(UUID dedupeId, EventFields fields, List<FieldError> errors) implements ReadResult {

        public Invalid {
            errors = List.copyOf(errors);
        }
    }

    /** Not UTF-8 JSON, not an object, or no readable dedupe_id: nothing to decide, so a dead letter. */
    record Unreadable(String problem) implements ReadResult {}
}
