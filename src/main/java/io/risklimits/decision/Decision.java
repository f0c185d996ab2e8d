package io.risklimits.decision;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A decision as stored in the request log and published on the decisions topic. usage, limits and
 * bucketTs are null for INVALID; errors is empty unless INVALID.
 *
 * @param released what a RELEASED reversal gave back; null otherwise
 * @param remaining for a reversal that found an approved original, its amount still counted after this
 *     reversal; null otherwise
 * @param dedupeConflict on a replay that answers a reused dedupe_id with different content, the names
 *     of the fields that differ; empty otherwise, and never stored
 * @param shadow for an authorization of a key that shadow limits apply to, what they would have
 *     decided (never enforced); null otherwise
 * @param scopes for an authorization or an increment, the scopes other than the business key's that it was
 *     checked at and that have a limit in force, in their order (usage and limits stay the key's); empty
 *     otherwise
 * @param holdExpiresAt when the hold an approved authorization or increment made (or moved) expires, and
 *     for an expiry when the hold expired; null otherwise
 * @param captured for a CAPTURED capture, what it turned from held into spent; null otherwise
 * @param overCaptured for a CAPTURED capture, what it counted anew in the current hour; null otherwise
 * @param conversion for an event in another currency than the limit currency, what it counted and at which
 *     rate (every figure about what is counted is in the limit currency); null otherwise
 * @param documents given as null: each decision makes its own memo of its documents
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
        Tally released,
        Long remaining,
        List<String> dedupeConflict,
        Outcome shadow,
        List<ScopeCheck> scopes,
        Instant holdExpiresAt,
        Long captured,
        Long overCaptured,
        Conversion conversion,
        boolean replayed,
        DecisionDocuments documents) {

    public Decision {
        errors = List.copyOf(errors);
        dedupeConflict = List.copyOf(dedupeConflict);
        scopes = List.copyOf(scopes);
        documents = new DecisionDocuments();
    }

    /**
     * An authorization decided against the limits now at its business key alone; the limits' shadow
     * set, if any, decides from the same usage beside them.
     */
    public static Decision limitChecked(
            TransactionEvent event, Outcome outcome, Usage usage, Limits limits, Instant bucketTs, Instant decidedAt) {
        return limitChecked(event, outcome, List.of(new ScopeCheck(Scope.KEY, usage, limits)), bucketTs, decidedAt);
    }

    /**
     * An authorization decided against the limits now at every scope it counts at (the business key's
     * first); the shadow sets, where any, decide from the same usage beside them.
     */
    public static Decision limitChecked(
            TransactionEvent event, Outcome outcome, List<ScopeCheck> checks, Instant bucketTs, Instant decidedAt) {
        ScopeCheck key = checks.get(0);
        if (key.scope() != Scope.KEY) {
            throw new IllegalArgumentException("the business key's scope is checked first");
        }
        return decided(
                event,
                outcome.verdict(),
                outcome.reason(),
                key.usage(),
                key.limits(),
                bucketTs,
                decidedAt,
                null,
                null,
                LimitPolicy.decideShadow(event.amount(), checks),
                reported(checks),
                null,
                null,
                null);
    }

    // the scopes after the key's that have a limit in force, with their enforced limits alone
    private static List<ScopeCheck> reported(List<ScopeCheck> checks) {
        return checks.stream()
                .skip(1)
                .filter(ScopeCheck::limited)
                .map(check -> new ScopeCheck(
                        check.scope(),
                        check.usage().reportedUnder(check.limits()),
                        check.limits().enforcedOnly()))
                .toList();
    }

    /** The amount this decision counts, in the limit currency. */
    public long countedAmount() {
        return conversion == null ? fields.amount() : conversion.countedAmount();
    }

    /** What one more authorization of this key could take right after this decision ({@link Available#after}). */
    public Available available() {
        return Available.after(this);
    }

    /** This authorization, approved as a hold that expires then. */
    public Decision asHoldUntil(Instant expiresAt) {
        return new Decision(
                dedupeId,
                fields,
                verdict,
                reason,
                errors,
                usage,
                limits,
                bucketTs,
                decidedAt,
                released,
                remaining,
                dedupeConflict,
                shadow,
                scopes,
                expiresAt,
                captured,
                overCaptured,
                conversion,
                replayed,
                null);
    }

    /**
     * A follow-up (reversal, capture, increment) decided by the rules of its original's hold.
     *
     * @param released what it gave back (null unless it gave something back, or is RELEASED)
     * @param remaining what is still counted of the original after it; null without an approved original
     * @param holdExpiresAt the hold's expiry after an APPROVED increment; null otherwise
     * @param captured what a capture took from what was held; null unless CAPTURED
     * @param overCaptured what a capture counted anew; null unless CAPTURED
     * @param scopes an increment's checks at every scope its hold counts at (the key's first); empty otherwise
     */
    public static Decision followUp(
            TransactionEvent event,
            Verdict verdict,
            Reason reason,
            Usage usage,
            Limits limits,
            Instant bucketTs,
            Instant decidedAt,
            Tally released,
            Long remaining,
            Instant holdExpiresAt,
            Long captured,
            Long overCaptured,
            List<ScopeCheck> scopes) {
        return decided(
                event,
                verdict,
                reason,
                usage,
                limits,
                bucketTs,
                decidedAt,
                released,
                remaining,
                null,
                reported(scopes),
                holdExpiresAt,
                captured,
                overCaptured);
    }

    /** A decision made now for a valid event (not a replay, no errors). */
    private static Decision decided(
            TransactionEvent event,
            Verdict verdict,
            Reason reason,
            Usage usage,
            Limits limits,
            Instant bucketTs,
            Instant decidedAt,
            Tally released,
            Long remaining,
            Outcome shadow,
            List<ScopeCheck> scopes,
            Instant holdExpiresAt,
            Long captured,
            Long overCaptured) {
        return new Decision(
                event.dedupeId(),
                event.fields(),
                verdict,
                reason,
                List.of(),
                usage.reportedUnder(limits),
                limits.enforcedOnly(),
                bucketTs,
                decidedAt,
                released,
                remaining,
                List.of(),
                shadow,
                scopes,
                holdExpiresAt,
                captured,
                overCaptured,
                null,
                false,
                null);
    }

    public static Decision invalid(UUID dedupeId, EventFields fields, List<FieldError> errors, Instant decidedAt) {
        return new Decision(
                dedupeId,
                fields,
                Verdict.INVALID,
                Reason.INVALID_REQUEST,
                errors,
                null,
                null,
                null,
                decidedAt,
                null,
                null,
                List.of(),
                null,
                List.of(),
                null,
                null,
                null,
                null,
                false,
                null);
    }

    /** The same decision, marked as a re-publication of one made earlier. */
    public Decision asReplay() {
        return replayedWith(dedupeConflict);
    }

    /** This decision re-published for an event that reused its dedupe_id with other content. */
    public Decision asConflictingReplay(List<String> differingFields) {
        return replayedWith(differingFields);
    }

    private Decision replayedWith(List<String> conflict) {
        return new Decision(
                dedupeId,
                fields,
                verdict,
                reason,
                errors,
                usage,
                limits,
                bucketTs,
                decidedAt,
                released,
                remaining,
                conflict,
                shadow,
                scopes,
                holdExpiresAt,
                captured,
                overCaptured,
                conversion,
                true,
                null);
    }

    /**
     * The fields in which an event differs from the one this decision was made for ({@link
     * EventFields#differingFrom}); empty for a redelivery of the same event.
     */
    public List<String> differingFields(TransactionEvent event) {
        return fields.differingFrom(event);
    }
}
