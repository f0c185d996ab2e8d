package io.risklimits.decision;

import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * Usage of one business key in every window that counts usage (all but txn), before the event being
 * decided; a window not given has none.
 *
 * @param resetsAt when each calendar window starts again, for a decision's usage ({@link
 *     WindowCalendar#resetsAfter}); empty where not known (a usage read for deciding alone)
 */
public record Usage(Map<Window, Tally> byWindow, Map<Window, Instant> resetsAt) {

    public static final Usage NONE = new Usage(Map.of());

    // an EnumMap: of() runs a few times per event on the decider's hot path, and an EnumMap answers
    // it with an array index where Map.copyOf's map hashes and probes; resetsAt is shared by every
    // usage of a batch (Map.copyOf returns an unmodifiable map as it is). The field holds the EnumMap
    // itself and the accessor a read-only view, as in Limits.
    public Usage {
        Map<Window, Tally> copy = new EnumMap<>(Window.class);
        for (Window window : Window.USAGE_WINDOWS) {
            copy.put(window, byWindow.getOrDefault(window, Tally.ZERO));
        }
        byWindow = copy;
        resetsAt = Map.copyOf(resetsAt);
    }

    /** The usage of each window that counts usage, in Window order; read-only. */
    @Override
    public Map<Window, Tally> byWindow() {
        return Collections.unmodifiableMap(byWindow);
    }

    /** Usage without reset times. */
    public Usage(Map<Window, Tally> byWindow) {
        this(byWindow, Map.of());
    }

    /** The usage of a window; zero for txn, which sums nothing. */
    public Tally of(Window window) {
        return byWindow.getOrDefault(window, Tally.ZERO);
    }

    /** When the calendar window starts again; null for a rolling window, or when not known. */
    public Instant resetOf(Window window) {
        return resetsAt.get(window);
    }

    /** The same usage, with these reset times. */
    public Usage withResets(Map<Window, Instant> resets) {
        return new Usage(byWindow, resets);
    }

    /** This usage with the reset times of the windows that have a limit in force alone: those reported and stored. */
    public Usage reportedUnder(Limits limits) {
        Map<Window, Instant> reported = new EnumMap<>(Window.class);
        resetsAt.forEach((window, reset) -> {
            if (limits.inForce(window)) {
                reported.put(window, reset);
            }
        });
        return reported.size() == resetsAt.size() ? this : new Usage(byWindow, reported);
    }

    /**
     * Usage after a release from the given hour bucket: every window that still contains that hour
     * shrinks by it, the others stay as they are; never below zero.
     */
    public Usage minus(Tally released, Instant releasedBucket, Instant currentBucket, WindowCalendar calendar) {
        Map<Window, Tally> next = new EnumMap<>(Window.class);
        byWindow.forEach((window, tally) -> next.put(
                window, calendar.contains(window, currentBucket, releasedBucket) ? tally.minus(released) : tally));
        return new Usage(next, resetsAt);
    }

    /** Usage after a tally counted in the current hour, which every window contains. */
    public Usage plus(Tally added) {
        Map<Window, Tally> next = new EnumMap<>(Window.class);
        byWindow.forEach((window, tally) -> next.put(window, tally.plus(added)));
        return new Usage(next, resetsAt);
    }

    /** Usage after an approved event of this amount. */
    public Usage plus(long amount) {
        Map<Window, Tally> next = new EnumMap<>(Window.class);
        byWindow.forEach((window, tally) -> next.put(window, tally.plus(amount)));
        return new Usage(next, resetsAt);
    }
}
