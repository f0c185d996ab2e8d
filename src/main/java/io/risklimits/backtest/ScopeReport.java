package io.risklimits.backtest;

import io.risklimits.decision.Reason;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * What the proposed limits would have changed for the keys of one scope (or of all, for the totals):
 * authorizations decided the other way, and reversals whose outcome changed with their originals.
 *
 * @param authorizations the authorizations and the increments decided again
 * @param approvedToRejected stored APPROVED, rejected under the proposed limits
 * @param approvedToRejectedByReason the same, by the reason of the new rejection
 * @param rejectedToApproved stored REJECTED, approved under the proposed limits
 * @param rejectedToApprovedByReason the same, by the stored reason, which names the scope whose limit
 *     rejected it (those stored without a reason this version knows are left out)
 * @param releasedToRejected reversals stored RELEASED that would release nothing (their original flipped)
 * @param rejectedToReleased reversals stored REJECTED that would release
 * @param originalArchived reversals stored RELEASED and increments stored APPROVED whose original is no
 *     longer in the log (archived past retention): not decided again, so neither a flip nor among
 *     {@code reversals} or {@code authorizations}
 */
public record ScopeReport(
        Scope scope,
        long keys,
        long authorizations,
        Change approvedToRejected,
        Map<Reason, Change> approvedToRejectedByReason,
        Change rejectedToApproved,
        Map<Reason, Change> rejectedToApprovedByReason,
        long reversals,
        Change releasedToRejected,
        Change rejectedToReleased,
        Change originalArchived) {

    public ScopeReport {
        Map<Reason, Change> copy = new EnumMap<>(Reason.class);
        copy.putAll(approvedToRejectedByReason);
        approvedToRejectedByReason = Collections.unmodifiableMap(copy);
        Map<Reason, Change> lifted = new EnumMap<>(Reason.class);
        lifted.putAll(rejectedToApprovedByReason);
        rejectedToApprovedByReason = Collections.unmodifiableMap(lifted);
    }

    public static ScopeReport empty(Scope scope) {
        return new ScopeReport(
                scope, 0, 0, Change.NONE, Map.of(), Change.NONE, Map.of(), 0, Change.NONE, Change.NONE, Change.NONE);
    }

    /** This report and another added up, under this report's scope. */
    public ScopeReport plus(ScopeReport other) {
        Map<Reason, Change> byReason = new EnumMap<>(Reason.class);
        byReason.putAll(approvedToRejectedByReason);
        other.approvedToRejectedByReason.forEach((reason, change) -> byReason.merge(reason, change, Change::plus));
        Map<Reason, Change> lifted = new EnumMap<>(Reason.class);
        lifted.putAll(rejectedToApprovedByReason);
        other.rejectedToApprovedByReason.forEach((reason, change) -> lifted.merge(reason, change, Change::plus));
        return new ScopeReport(
                scope,
                keys + other.keys,
                authorizations + other.authorizations,
                approvedToRejected.plus(other.approvedToRejected),
                byReason,
                rejectedToApproved.plus(other.rejectedToApproved),
                lifted,
                reversals + other.reversals,
                releasedToRejected.plus(other.releasedToRejected),
                rejectedToReleased.plus(other.rejectedToReleased),
                originalArchived.plus(other.originalArchived));
    }

    /** Authorizations decided the other way, either way. */
    public long flips() {
        return approvedToRejected.count() + rejectedToApproved.count();
    }
}
