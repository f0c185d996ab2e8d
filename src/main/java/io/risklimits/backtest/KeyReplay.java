package io.risklimits.backtest;

import io.risklimits.decision.LimitPolicy;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Outcome;
import io.risklimits.decision.Reason;
import io.risklimits.decision.ScopeCheck;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.hold.HoldLedger;
import io.risklimits.decision.hold.HoldOutcome;
import io.risklimits.decision.hold.HoldVerdict;
import java.util.List;
import java.util.UUID;

/**
 * One key's history decided again, without I/O. Rows before the period apply their stored outcomes;
 * rows inside it are decided by the live decider's policies against the proposed limits, and their new
 * outcomes drive the state from then on: an authorization and an increment may flip, a reversal is
 * decided again against what is still counted of its original, a capture is never rejected, and an
 * expiry happens at its recorded time. A hold due at a row's instant expires before it. Each new
 * outcome of an authorization, an increment or a reversal is compared with the stored one.
 */
final class KeyReplay {

    private final Scope scope;
    private final Limits limits;
    private final KeyState state;
    private final ReplayedHolds<UUID> holds = new ReplayedHolds<>();

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
            replay.holds.expireDue(row.effectiveAt());
            if (!row.inPeriod()) {
                replay.holds.applyStored(row, row.dedupeId(), row.target(), replay.state);
            } else {
                replay.decideAgain(row);
            }
        }
        return replay.report();
    }

    private void decideAgain(AuditRow row) {
        switch (row.type()) {
            case AUTHORIZATION -> authorize(row);
            case REVERSAL -> reverse(row);
            case CAPTURE -> holds.capture(row.target(), row, state);
            case INCREMENT -> increment(row);
            case EXPIRY -> holds.expire(row.target(), row.effectiveAt());
        }
        if (!row.isAuthorization()) {
            holds.notApproved(row.dedupeId());
        }
    }

    private void authorize(AuditRow row) {
        Outcome outcome = row.uncountable() != null
                ? row.uncountable()
                : LimitPolicy.decide(row.amount(), state.usageAt(row.bucketHour()), limits);
        if (outcome.isApproved()) {
            holds.approved(row.dedupeId(), row, state);
        } else {
            holds.notApproved(row.dedupeId());
        }
        counts.authorization(row, outcome);
    }

    private void reverse(AuditRow row) {
        if (!holds.has(row.target()) && row.storedVerdict() == Verdict.RELEASED) {
            // it found its original when decided, and the original has been archived since: it cannot be
            // decided again. The original's hour is before the retention cutoff, outside every window of
            // the period (the command refuses a period whose windows reach before the cutoff).
            counts.originalArchived(row);
            return;
        }
        HoldOutcome outcome = holds.reverse(row.target(), row);
        counts.reversal(row, outcome.verdict() == HoldVerdict.RELEASED);
    }

    // decided against the hold as the replay has it: the amount against each window, the txn cap against the
    // hold's total with it; an approved increment whose hold was archived since stands as stored
    private void increment(AuditRow row) {
        if (!holds.has(row.target()) && row.storedVerdict() == Verdict.APPROVED) {
            holds.incrementAsStored(row.target(), row, state);
            counts.originalArchived(row);
            return;
        }
        HoldLedger hold = holds.ledgerOf(row.target());
        Reason limitExceeded = hold == null
                ? null
                : LimitPolicy.decideIncrement(
                                row.amount(),
                                Math.addExact(hold.authorized(), row.amount()),
                                List.of(new ScopeCheck(
                                        io.risklimits.decision.Scope.KEY, state.usageAt(row.bucketHour()), limits)))
                        .reason();
        counts.authorization(row, FlipCounts.outcomeOf(holds.increment(row.target(), row, limitExceeded)));
    }

    private ScopeReport report() {
        return counts.report(scope, 1);
    }
}
