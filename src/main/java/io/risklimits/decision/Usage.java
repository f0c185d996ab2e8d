package io.risklimits.decision;

import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * Usage of one business key in every window that counts usage (all but txn), before the event being
 * decided; a window not given has none.
 */
public record Usage(Map<Window, Tally> byWindow) {

    public static final Usage NONE = new Usage(Map.of());

    // an EnumMap: of() runs a few times per event on the decider's hot path, and an EnumMap answers
    // it with an array index where Map.copyOf's map hashes and probes
    public Usage {
        Map<Window, Tally> copy = new EnumMap<>(Window.class);
        for (Window window : Window.values()) {
            if (window.countsUsage()) {
                copy.put(window, byWindow.getOrDefault(window, Tally.ZERO));
            }
        }
        byWindow = Collections.unmodifiableMap(copy);
    }

    /** The usage of a window; zero for txn, which sums nothing. */
    public Tally of(Window window) {
        return byWindow.getOrDefault(window, Tally.ZERO);
    }

    /**
     * Usage after a release from the given hour bucket: every window that still contains that hour
     * shrinks by it, the others stay as they are; never below zero.
     */
    public Usage minus(Tally released, Instant releasedBucket, Instant currentBucket, WindowCalendar calendar) {
        Map<Window, Tally> next = new EnumMap<>(Window.class);
        byWindow.forEach((window, tally) -> next.put(
                window, calendar.contains(window, currentBucket, releasedBucket) ? tally.minus(released) : tally));
        return new Usage(next);
    }

    /** Usage after a tally counted in the current hour, which every window contains. */
    public Usage plus(Tally added) {
        Map<Window, Tally> next = new EnumMap<>(Window.class);
        byWindow.forEach((window, tally) -> next.put(window, tally.plus(added)));
        return new Usage(next);
    }

    /** Usage after an approved event of this amount. */
    public Usage plus(long amount) {
        Map<Window, Tally> next = new EnumMap<>(Window.class);
        byWindow.forEach((window, tally) -> next.put(window, tally.plus(amount)));
        return new Usage(next);
    }
}
