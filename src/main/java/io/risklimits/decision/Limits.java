package io.risklimits.decision;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The limit of every window in force for one business key (a window absent is unlimited), and, when a
 * shadow row of risk_limit matches the key, the shadow set evaluated beside them: the limits that
 * limits promote would leave. The shadow set is never enforced. Immutable; equal when their limits and
 * shadow sets are.
 */
public final class Limits {

    public static final Limits NONE = new Limits(Map.of());

    // an EnumMap, as in Usage; iterated in the order the windows are checked. The field holds the map
    // itself and the accessor a read-only view of it, so that the lookups made here, a few per window of
    // every decision, are calls on one map class, which the compiler inlines.
    private final Map<Window, Limit> byWindow;
    private final Limits shadow;
    // computed once: limits are map keys of the decider's documents (DecisionJson), once per decision
    private final int hash;

    /**
     * @param shadow null when no shadow row matches the key
     */
    public Limits(Map<Window, Limit> byWindow, Limits shadow) {
        Map<Window, Limit> copy = new EnumMap<>(Window.class);
        byWindow.forEach((window, limit) -> copy.put(Objects.requireNonNull(window), Objects.requireNonNull(limit)));
        if (shadow != null && shadow.shadow() != null) {
            throw new IllegalArgumentException("a shadow set has no shadow of its own");
        }
        this.byWindow = copy;
        this.shadow = shadow;
        this.hash = 31 * copy.hashCode() + Objects.hashCode(shadow);
    }

    /** Enforced limits without a shadow set. */
    public Limits(Map<Window, Limit> byWindow) {
        this(byWindow, null);
    }

    /** The limit of each window in force, in Window order; read-only. */
    public Map<Window, Limit> byWindow() {
        return Collections.unmodifiableMap(byWindow);
    }

    /** The shadow set evaluated beside these limits; null when no shadow row matches the key. */
    public Limits shadow() {
        return shadow;
    }

    public Limit of(Window window) {
        return byWindow.getOrDefault(window, Limit.UNLIMITED);
    }

    /** Whether the window has a limit in force: only those are reported with a decision. */
    public boolean inForce(Window window) {
        return byWindow.containsKey(window);
    }

    /**
     * Whether a decision needs the key's usage: some window that counts usage (all but txn) has a limit in
     * force, or one in the shadow set.
     */
    public boolean checkUsage() {
        for (Window window : byWindow.keySet()) {
            if (window != Window.TXN) {
                return true;
            }
        }
        return shadow != null && shadow.checkUsage();
    }

    /** These limits with the given shadow set beside them (null: none). */
    public Limits withShadow(Limits shadowLimits) {
        return new Limits(byWindow, shadowLimits);
    }

    /** These limits alone, as stored and published: the shadow set is reported by its outcome only. */
    public Limits enforcedOnly() {
        return shadow == null ? this : new Limits(byWindow);
    }

    @Override
    public boolean equals(Object other) {
        return this == other
                || other instanceof Limits that
                        && hash == that.hash
                        && byWindow.equals(that.byWindow)
                        && Objects.equals(shadow, that.shadow);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return "Limits[byWindow=" + byWindow + ", shadow=" + shadow + "]";
    }
}
