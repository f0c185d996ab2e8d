package io.risklimits.backtest;

import io.risklimits.decision.LimitPolicy;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Outcome;
import io.risklimits.decision.ReversalPolicy;
import io.risklimits.decision.Verdict;

/**
 * One key's history decided again, without I/O. Rows before the period apply their stored outcomes
 * (an approval counted in its bucket, a release given back to its original's bucket); rows inside it
 * are decided by the live decider's policies against the proposed limits, and their new outcomes
 * drive the state from then on. Each new outcome is compared with the stored one.
 */
final class KeyReplay {

    private final Scope scope;
    private final Limits limits;
    private final KeyState state;

    private final FlipCounts counts = new FlipCounts();

    private KeyReplay(Scope scope, Limits limits, KeyState state) {
        this.scope = scope;
        this.limits = limits;
        this.state = state;
    }

    /** What deciding the key's rows of the period again under the limits changes; reported under scope. */
    static ScopeReport replay(KeyHistory history, Limits limits, Scope scope, WindowStartHours windowStarts) {
        KeyReplay replay = new KeyReplay(scope, limits, KeyState.covering(history.rows(), windowStarts));
        for (AuditRow row : history.rows()) {
            if (!row.inPeriod()) {
                replay.applyStored(row);
            } else if (row.isAuthorization()) {
                replay.authorize(row);
            } else {
                replay.reverse(row);
            }
        }
        return replay.report();
    }

    private void applyStored(AuditRow row) {
        if (row.isAuthorization() && row.storedVerdict() == Verdict.APPROVED) {
            state.count(row);
        } else if (!row.isAuthorization() && row.storedVerdict() == Verdict.RELEASED) {
            ReplayedOriginal original = state.originalOf(row);
            // an original no longer in the log was archived with its bucket: nothing left to release from
            if (original != null) {
                state.release(original, row.releasedAmount(), row.releasedCount());
            }
        }
        state.file(row, row.storedVerdict());
    }

    private void authorize(AuditRow row) {
        Outcome outcome = LimitPolicy.decide(row.amount(), state.usageAt(row.bucketHour()), limits);
        if (outcome.isApproved()) {
            state.count(row);
        }
        state.file(row, outcome.verdict());
        counts.authorization(row, outcome);
    }

    private void reverse(AuditRow row) {
        ReplayedOriginal original = state.originalOf(row);
        if (original == null && row.storedVerdict() == Verdict.RELEASED) {
            // it found its original when decided, and the original has been archived since: it cannot be
            // decided again. The original's hour is before the retention cutoff, outside every window of
            // the period (the command refuses a period whose windows reach before the cutoff).
            state.file(row, row.storedVerdict());
            counts.originalArchived(row);
            return;
        }
        ReversalPolicy.Outcome outcome =
                ReversalPolicy.decide(row.amount(), original == null ? null : original.asPolicyOriginal());
        if (outcome.isReleased()) {
            state.release(
                    original, outcome.released().amount(), outcome.released().count());
        }
        state.file(row, outcome.verdict());
        counts.reversal(row, outcome);
    }

    private ScopeReport report() {
        return counts.report(scope, 1);
    }
}
