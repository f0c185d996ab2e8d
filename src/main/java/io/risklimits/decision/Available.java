package io.risklimits.decision;

import java.util.ArrayList;
import java.util.List;

/**
 * How much one more authorization of a key could take right after a decision: at every scope the decision
 * reports, the usage before it plus what it counted, against every enforced window. The amount is the
 * smallest headroom of any window, the {@code txn} cap included; the count the smallest of any window
 * that counts (txn has none); neither below 0.
 *
 * @param count null when no window limits the count (a {@code txn} cap alone)
 * @param scope the scope of the window that binds the amount (the first in check order among equals)
 * @param window the window that binds the amount
 */
public record Available(long amount, Long count, Scope scope, Window window) {

    /**
     * The headroom after a decision on an authorization or an increment: an approved authorization counts
     * its amount and one, an approved increment its amount alone, anything else nothing. Null for other
     * decisions, and when no window of any scope limits the amount.
     */
    public static Available after(Decision decision) {
        EventType type = decision.fields().type();
        if (decision.verdict() == Verdict.INVALID || (type != EventType.AUTHORIZATION && type != EventType.INCREMENT)) {
            return null;
        }
        Tally counted = decision.verdict() != Verdict.APPROVED
                ? Tally.ZERO
                : new Tally(decision.countedAmount(), type == EventType.AUTHORIZATION ? 1 : 0);
        List<ScopeCheck> checks = new ArrayList<>();
        checks.add(new ScopeCheck(Scope.KEY, decision.usage(), decision.limits()));
        checks.addAll(decision.scopes());
        return after(checks, counted);
    }

    /**
     * The headroom at these scopes (usage before, enforced limits) once this tally is counted at each;
     * null when no window of any of them limits the amount.
     */
    public static Available after(List<ScopeCheck> checks, Tally counted) {
        Available smallest = null;
        Long count = null;
        for (ScopeCheck check : checks) {
            // every window in force, in Window order; looked up rather than iterated, so that no view
            // of the limits' map is made per decision
            for (Window window : Window.ALL) {
                if (!check.limits().inForce(window)) {
                    continue;
                }
                Limit limit = check.limits().of(window);
                Tally after = check.usage().of(window).plus(counted);
                if (limit.maxAmount() != null) {
                    long left =
                            window.countsUsage() ? Math.max(0, limit.maxAmount() - after.amount()) : limit.maxAmount();
                    if (smallest == null || left < smallest.amount()) {
                        smallest = new Available(left, null, check.scope(), window);
                    }
                }
                if (window.countsUsage() && limit.maxCount() != null) {
                    long left = Math.max(0, limit.maxCount() - after.count());
                    count = count == null ? left : Math.min(count, left);
                }
            }
        }
        return smallest == null ? null : new Available(smallest.amount(), count, smallest.scope(), smallest.window());
    }
}
