package io.risklimits.decision;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A decision as stored in the request log and published on the decisions topic. usage, limits and
 * bucketTs are null for INVALID; errors is empty unless INVALID.
 */
public record Decision(
        UUID dedupeId,
        EventFields fields,
        Verdict verdict,
        Reason reason,
        List<FieldError> errors,
        Usage usage,
        Limits limits,
        Instant bucketTs,
        Instant decidedAt,
        boolean replayed) {

    public Decision {
        errors = List.copyOf(errors);
    }

    public static Decision limitChecked(
            TransactionEvent event, Outcome outcome, Usage usage, Limits limits, Instant bucketTs, Instant decidedAt) {
        return new Decision(
                event.dedupeId(),
                event.fields(),
                outcome.verdict(),
                outcome.reason(),
                List.of(),
                usage,
                limits,
                bucketTs,
                decidedAt,
                false);
    }

    public static Decision invalid(UUID dedupeId, EventFields fields, List<FieldError> errors, Instant decidedAt) {
        return new Decision(
                dedupeId, fields, Verdict.INVALID, Reason.INVALID_REQUEST, errors, null, null, null, decidedAt, false);
    }

    /** The same decision, marked as a re-publication of one made earlier. */
    public Decision asReplay() {
        return new Decision(dedupeId, fields, verdict, reason, errors, usage, limits, bucketTs, decidedAt, true);
    }
}
