package io.risklimits.backtest;

import io.risklimits.decision.Outcome;
import io.risklimits.decision.Reason;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.hold.HoldOutcome;
import io.risklimits.decision.hold.HoldVerdict;
import java.util.EnumMap;
import java.util.Map;

/**
 * What deciding rows again changed, counted for the keys reported under one scope: each authorization
 * (an increment counting as one) and reversal decided again against its stored decision, and the
 * follow-ups whose original was archived.
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

    /** A reversal decided again: released now, or rejected. */
    void reversal(AuditRow row, boolean released) {
        reversals++;
        if (row.storedVerdict() == Verdict.RELEASED && !released) {
            releasedToRejected = releasedToRejected.plusOne(row.amount());
        } else if (row.storedVerdict() == Verdict.REJECTED && released) {
            rejectedToReleased = rejectedToReleased.plusOne(row.amount());
        }
    }

    /** An increment's outcome as an authorization's: approved, or rejected for the limit or the hold rule. */
    static Outcome outcomeOf(HoldOutcome increment) {
        return increment.verdict() == HoldVerdict.APPROVED
                ? Outcome.approved()
                : Outcome.rejectedFor(Reason.valueOf(increment.reason().code()));
    }

    /** A released reversal or approved increment whose original has been archived since: not decided again. */
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
