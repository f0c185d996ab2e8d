package io.risklimits.backtest;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.LimitPolicy;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Outcome;
import io.risklimits.decision.Reason;
import io.risklimits.decision.ScopeCheck;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.hold.HoldLedger;
import io.risklimits.decision.hold.HoldOutcome;
import io.risklimits.decision.hold.HoldVerdict;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Keys that share an entity or an account decided again together, without I/O, in the order they
 * were decided. Rows before the period apply their stored outcomes at every scope key they were
 * counted at; each authorization inside it is checked at every scope key it counts at, by the live
 * decider's policy, against the proposed limits of each; an approval is counted at all of them, and
 * the follow-ups and expiries of an authorization act (as in {@link KeyReplay}) at every scope key it
 * was counted at, whatever account they carry, an increment checked at each. A hold due at a row's
 * instant expires before it, whatever its key. Each new outcome is compared with the stored one and
 * reported under its key's scope; a new rejection's reason names the scope whose limit it hit.
 */
final class ScopedReplay {

    private final ProposedLimits limits;
    private final ScopedState state;
    private final Map<ScopeKey, Limits> limitsByScopeKey = new HashMap<>();
    private final Map<Scope, Counts> byScope = new HashMap<>();
    private final ReplayedHolds<DecisionId> holds = new ReplayedHolds<>();
    // the scope keys each approved authorization is counted at, where its increments are checked
    private final Map<DecisionId, List<ScopeKey>> countedAt = new HashMap<>();

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
        holds.expireDue(row.row().effectiveAt());
        if (!row.row().inPeriod()) {
            if (row.row().isAuthorization() && row.row().storedVerdict() == Verdict.APPROVED) {
                countedAt.put(idOf(row), row.countedAt());
            }
            holds.applyStored(row.row(), idOf(row), targetOf(row), state.bucketsOf(row.countedAt()));
        } else {
            decideAgain(row, counts);
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

    private void decideAgain(ScopedRow scoped, Counts counts) {
        AuditRow row = scoped.row();
        switch (row.type()) {
            case AUTHORIZATION -> authorize(scoped, counts);
            case REVERSAL -> reverse(scoped, counts);
            case CAPTURE -> holds.capture(targetOf(scoped), row, state.bucketsOf(scoped.countedAt()));
            case INCREMENT -> increment(scoped, counts);
            case EXPIRY -> holds.expire(targetOf(scoped), row.effectiveAt());
        }
        if (!row.isAuthorization()) {
            holds.notApproved(idOf(scoped));
        }
    }

    private void authorize(ScopedRow scoped, Counts counts) {
        AuditRow row = scoped.row();
        Outcome outcome = row.uncountable() != null
                ? row.uncountable()
                : LimitPolicy.decide(row.amount(), checksAt(scoped.countedAt(), row.bucketHour()));
        if (outcome.isApproved()) {
            countedAt.put(idOf(scoped), scoped.countedAt());
            holds.approved(idOf(scoped), row, state.bucketsOf(scoped.countedAt()));
        } else {
            holds.notApproved(idOf(scoped));
        }
        counts.flips().authorization(row, outcome);
    }

    // what it gives back goes to every scope key its original was counted at, whatever account it carries
    private void reverse(ScopedRow scoped, Counts counts) {
        AuditRow row = scoped.row();
        if (!holds.has(targetOf(scoped)) && row.storedVerdict() == Verdict.RELEASED) {
            // found its original when decided, archived since: not decided again (see KeyReplay)
            counts.flips().originalArchived(row);
            return;
        }
        HoldOutcome outcome = holds.reverse(targetOf(scoped), row);
        counts.flips().reversal(row, outcome.verdict() == HoldVerdict.RELEASED);
    }

    // checked at every scope key its hold is counted at (see KeyReplay)
    private void increment(ScopedRow scoped, Counts counts) {
        AuditRow row = scoped.row();
        DecisionId target = targetOf(scoped);
        if (!holds.has(target) && row.storedVerdict() == Verdict.APPROVED) {
            holds.incrementAsStored(target, row, state.bucketsOf(scoped.countedAt()));
            counts.flips().originalArchived(row);
            return;
        }
        HoldLedger hold = holds.ledgerOf(target);
        Reason limitExceeded = hold == null
                ? null
                : LimitPolicy.decideIncrement(
                                row.amount(),
                                Math.addExact(hold.authorized(), row.amount()),
                                checksAt(countedAt.get(target), row.bucketHour()))
                        .reason();
        counts.flips().authorization(row, FlipCounts.outcomeOf(holds.increment(target, row, limitExceeded)));
    }

    private List<ScopeCheck> checksAt(List<ScopeKey> scopeKeys, long bucketHour) {
        List<ScopeCheck> checks = new ArrayList<>(scopeKeys.size());
        for (ScopeKey scopeKey : scopeKeys) {
            checks.add(new ScopeCheck(scopeKey.scope(), state.usageAt(scopeKey, bucketHour), limitsFor(scopeKey)));
        }
        return checks;
    }

    private static DecisionId idOf(ScopedRow scoped) {
        return new DecisionId(scoped.key(), scoped.row().dedupeId());
    }

    // a follow-up finds its original under its own business key
    private static DecisionId targetOf(ScopedRow scoped) {
        return new DecisionId(scoped.key(), scoped.row().target());
    }

    /** A decision named as a follow-up names it: under its business key. */
    private record DecisionId(BusinessKey key, UUID dedupeId) {}

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
