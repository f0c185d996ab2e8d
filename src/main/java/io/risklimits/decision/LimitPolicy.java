package io.risklimits.decision;

import java.util.List;

/**
 * The decision itself, free of I/O: an authorization is approved only if, at every scope it counts at,
 * its amount is within the {@code txn} cap and, for every other window, usage + amount stays within
 * the maximum amount and usage count + 1 within the maximum count. Scopes are checked in their
 * declared order and the windows of each in theirs; the first that fails names the reason.
 */
public final class LimitPolicy {

    private LimitPolicy() {}

    /** The decision at one scope, the business key's. */
    public static Outcome decide(long amount, Usage usage, Limits limits) {
        return decide(amount, List.of(new ScopeCheck(Scope.KEY, usage, limits)));
    }

    /** The decision at every scope given, in their order. */
    public static Outcome decide(long amount, List<ScopeCheck> checks) {
        return decide(amount, amount, true, checks);
    }

    /**
     * The decision on an incremental authorization: its amount against every window's amount, the txn cap
     * against the hold's total after it, and no count, the authorization being counted already.
     *
     * @param holdTotal the hold's authorized total with this increment (amount + increments)
     */
    public static Outcome decideIncrement(long amount, long holdTotal, List<ScopeCheck> checks) {
        return decide(amount, holdTotal, false, checks);
    }

    private static Outcome decide(long amount, long txnAmount, boolean countsOne, List<ScopeCheck> checks) {
        for (ScopeCheck check : checks) {
            for (Window window : Window.ALL) {
                Limit limit = check.limits().of(window);
                Tally used = check.usage().of(window);
                long checked = window.countsUsage() ? amount : txnAmount;
                if (!limit.admitsAmount(used.amount(), checked)) {
                    return Outcome.rejectedFor(check.scope().reasonFor(window.amountExceeded()));
                }
                if (countsOne && window.countsUsage() && !limit.admitsOneMore(used.count())) {
                    return Outcome.rejectedFor(check.scope().reasonFor(window.countExceeded()));
                }
            }
        }
        return Outcome.approved();
    }

    /**
     * What the shadow sets would decide from the same usage (at a scope without a shadow row, its
     * enforced limits), or null when no shadow row matches any of the scopes.
     */
    public static Outcome decideShadow(long amount, List<ScopeCheck> checks) {
        if (checks.stream().allMatch(check -> check.limits().shadow() == null)) {
            return null;
        }
        return decide(amount, checks.stream().map(ScopeCheck::asShadow).toList());
    }

    /** {@link #decideShadow(long, List)} at the business key's scope alone. */
    public static Outcome decideShadow(long amount, Usage usage, Limits limits) {
        return decideShadow(amount, List.of(new ScopeCheck(Scope.KEY, usage, limits)));
    }
}
