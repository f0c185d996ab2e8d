package io.risklimits.backtest;

import io.risklimits.decision.Outcome;
import io.risklimits.decision.Reason;
import io.risklimits.decision.ReversalPolicy;
import io.risklimits.decision.Verdict;
import java.util.EnumMap;
import java.util.Map;

/**
 * What deciding rows again changed, counted for the keys reported under one scope: each authorization
 * and reversal decided again against its stored decision, and the reversals whose original was archived.
 */
final class FlipCounts {

    private long authorizations;
    private Change approvedToRejected = Change.NONE;
    private final Map<Reason, Change> approvedToRejectedByReason = new EnumMap<>(Reason.class);
    private Change rejectedToApproved = Change.NONE;
    private final Map<Reason, Change> rejectedToApprovedByReason = new EnumMap<>(Reason.class);
    private long reversals;
    private Change releasedToRejected = Change.NONE;
    private Change rejectedToReleased = Change.NONE;
    private Change originalArchived = Change.NONE;

    /** An authorization decided again: a flip is counted by the reason that now rejects, or that had rejected. */
    void authorization(AuditRow row, Outcome outcome) {
        authorizations++;
        if (row.storedVerdict() == Verdict.APPROVED && !outcome.isApproved()) {
            approvedToRejected = approvedToRejected.plusOne(row.amount());
            approvedToRejectedByReason.merge(outcome.reason(), new Change(1, row.amount()), Change::plus);
        } else if (row.storedVerdict() == Verdict.REJECTED && outcome.isApproved()) {
            rejectedToApproved = rejectedToApproved.plusOne(row.amount());
            if (row.storedReason() != null) {
                rejectedToApprovedByReason.merge(row.storedReason(), new Change(1, row.amount()), Change::plus);
            }
        }
    }

    /** A reversal decided again. */
    void reversal(AuditRow row, ReversalPolicy.Outcome outcome) {
        reversals++;
        if (row.storedVerdict() == Verdict.RELEASED && !outcome.isReleased()) {
            releasedToRejected = releasedToRejected.plusOne(row.amount());
        } else if (row.storedVerdict() == Verdict.REJECTED && outcome.isReleased()) {
            rejectedToReleased = rejectedToReleased.plusOne(row.amount());
        }
    }

    /** A released reversal whose original has been archived since: not decided again. */
    void originalArchived(AuditRow row) {
        originalArchived = originalArchived.plusOne(row.amount());
    }

    ScopeReport report(Scope scope, long keys) {
        return new ScopeReport(
                scope,
                keys,
                authorizations,
                approvedToRejected,
                approvedToRejectedByReason,
                rejectedToApproved,
                rejectedToApprovedByReason,
                reversals,
                releasedToRejected,
                rejectedToReleased,
                originalArchived);
    }
}
