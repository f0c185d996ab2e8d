package io.risklimits.decision;

/**
 * The decision itself, free of I/O: an authorization is approved only if its amount is within the
 * {@code txn} cap and, for every other window, usage + amount stays within the maximum amount and
 * usage count + 1 within the maximum count. Windows are checked in their declared order; the first
 * that fails names the reason.
 */
public final class LimitPolicy {

    private LimitPolicy() {}

    public static Outcome decide(long amount, Usage usage, Limits limits) {
        for (Window window : Window.values()) {
            Limit limit = limits.of(window);
            Tally used = usage.of(window);
            if (!limit.admitsAmount(used.amount(), amount)) {
                return Outcome.rejectedFor(window.amountExceeded());
            }
            if (window.countsUsage() && !limit.admitsOneMore(used.count())) {
                return Outcome.rejectedFor(window.countExceeded());
            }
        }
        return Outcome.approved();
    }

    /**
     * What the key's shadow set would decide from the same usage, or null when no shadow row matches
     * the key.
     */
    public static Outcome decideShadow(long amount, Usage usage, Limits limits) {
        return limits.shadow() == null ? null : decide(amount, usage, limits.shadow());
    }
}
