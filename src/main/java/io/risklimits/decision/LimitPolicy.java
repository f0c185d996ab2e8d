package io.risklimits.decision;

/**
 * The decision itself, free of I/O: an event is approved only if, for every window,
 * usage + amount stays within the maximum amount and usage count + 1 within the maximum count.
 */
public final class LimitPolicy {

    private LimitPolicy() {}

    public static Outcome decide(long amount, Usage usage, Limits limits) {
        for (Window window : Window.values()) {
            Tally used = usage.of(window);
            Limit limit = limits.of(window);
            if (!limit.admitsAmount(used.amount(), amount)) {
                return Outcome.rejectedFor(window.amountExceeded());
            }
            if (!limit.admitsOneMore(used.count())) {
                return Outcome.rejectedFor(window.countExceeded());
            }
        }
        return Outcome.approved();
    }
}
