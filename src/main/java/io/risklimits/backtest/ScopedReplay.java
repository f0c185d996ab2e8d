package io.risklimits.backtest;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.LimitPolicy;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Outcome;
import io.risklimits.decision.ReversalPolicy;
import io.risklimits.decision.ScopeCheck;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Verdict;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Keys that share an entity or an account decided again together, without I/O, in the order they
 * were decided. Rows before the period apply their stored outcomes at every scope key they were
 * counted at; each authorization inside it is checked at every scope key it counts at, by the live
 * decider's policy, against the proposed limits of each; an approval is counted at all of them and a
 * release given back at every scope key its original was counted at, whatever account the reversal
 * carries. Each new outcome is compared with the stored one and reported under its key's scope; a
 * new rejection's reason names the scope whose limit it hit.
 */
final class ScopedReplay {

    private final ProposedLimits limits;
    private final ScopedState state;
    private final Map<ScopeKey, Limits> limitsByScopeKey = new HashMap<>();
    private final Map<Scope, Counts> byScope = new HashMap<>();

    /** A replay of rows whose buckets lie from firstHour to lastHour. */
    ScopedReplay(ProposedLimits limits, WindowStartHours windowStarts, long firstHour, long lastHour) {
        this.limits = limits;
        this.state = new ScopedState(
                windowStarts,
                firstHour,
                lastHour,
                scopeKey -> !limitsFor(scopeKey).byWindow().isEmpty());
    }

    /** Replays the rows, of every key of the group, given in the order they were decided. */
    static List<ScopeReport> replay(List<ScopedRow> rows, ProposedLimits limits, WindowStartHours windowStarts) {
        long first =
                rows.stream().mapToLong(row -> row.row().bucketHour()).min().orElse(0);
        long last = rows.stream().mapToLong(row -> row.row().bucketHour()).max().orElse(0);
        ScopedReplay replay = new ScopedReplay(limits, windowStarts, first, last);
        rows.forEach(replay::replay);
        return replay.reports();
    }

    /** The next row, decided after every row given before it. */
    void replay(ScopedRow row) {
        Counts counts = byScope.computeIfAbsent(limits.scopeOf(row.key()), unused -> new Counts());
        counts.keys().add(row.key());
        if (!row.row().inPeriod()) {
            applyStored(row);
        } else if (row.row().isAuthorization()) {
            authorize(row, counts);
        } else {
            reverse(row, counts);
        }
    }

    /** What changed so far, per scope its keys are reported under. */
    List<ScopeReport> reports() {
        List<ScopeReport> reports = new ArrayList<>();
        byScope.forEach((scope, counts) -> reports.add(counts.report(scope)));
        return reports;
    }

    private Limits limitsFor(ScopeKey scopeKey) {
        return limitsByScopeKey.computeIfAbsent(scopeKey, limits::limitsFor);
    }

    private void applyStored(ScopedRow scoped) {
        AuditRow row = scoped.row();
        if (row.isAuthorization() && row.storedVerdict() == Verdict.APPROVED) {
            state.count(scoped);
        } else if (!row.isAuthorization() && row.storedVerdict() == Verdict.RELEASED) {
            ScopedState.Original original = state.originalOf(scoped);
            // an original no longer in the log was archived with its buckets: nothing left to release from
            if (original != null) {
                state.release(original, row.releasedAmount(), row.releasedCount());
            }
        }
        state.file(scoped, row.storedVerdict());
    }

    private void authorize(ScopedRow scoped, Counts counts) {
        AuditRow row = scoped.row();
        List<ScopeCheck> checks = new ArrayList<>(4);
        for (ScopeKey scopeKey : scoped.countedAt()) {
            checks.add(
                    new ScopeCheck(scopeKey.scope(), state.usageAt(scopeKey, row.bucketHour()), limitsFor(scopeKey)));
        }
        Outcome outcome = LimitPolicy.decide(row.amount(), checks);
        if (outcome.isApproved()) {
            state.count(scoped);
        }
        state.file(scoped, outcome.verdict());
        counts.flips().authorization(row, outcome);
    }

    private void reverse(ScopedRow scoped, Counts counts) {
        AuditRow row = scoped.row();
        ScopedState.Original original = state.originalOf(scoped);
        if (original == null && row.storedVerdict() == Verdict.RELEASED) {
            // found its original when decided, archived since: not decided again (see KeyReplay)
            state.file(scoped, row.storedVerdict());
            counts.flips().originalArchived(row);
            return;
        }
        ReversalPolicy.Outcome outcome = ReversalPolicy.decide(
                row.amount(), original == null ? null : original.decision().asPolicyOriginal());
        if (outcome.isReleased()) {
            state.release(
                    original, outcome.released().amount(), outcome.released().count());
        }
        state.file(scoped, outcome.verdict());
        counts.flips().reversal(row, outcome);
    }

    /** The keys reported under one scope, and what deciding their rows again changed. */
    private record Counts(Set<BusinessKey> keys, FlipCounts flips) {

        Counts() {
            this(new HashSet<>(), new FlipCounts());
        }

        ScopeReport report(Scope scope) {
            return flips.report(scope, keys.size());
        }
    }
}
