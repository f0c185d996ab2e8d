package io.risklimits.decision;

import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/** Usage of one business key in every window, before the event being decided. */
public record Usage(Map<Window, Tally> byWindow) {

    public static final Usage NONE = new Usage(
            Map.of(Window.LAST_24_HOURS, Tally.ZERO, Window.LAST_7_DAYS, Tally.ZERO, Window.LAST_30_DAYS, Tally.ZERO));

    // an EnumMap: of() runs a few times per event on the decider's hot path, and an EnumMap answers
    // it with an array index where Map.copyOf's map hashes and probes
    public Usage {
        Map<Window, Tally> copy = new EnumMap<>(Window.class);
        copy.putAll(byWindow);
        for (Window window : Window.values()) {
            if (copy.get(window) == null) {
                throw new IllegalArgumentException("usage lacks window " + window.label());
            }
        }
        byWindow = Collections.unmodifiableMap(copy);
    }

    public Tally of(Window window) {
        return byWindow.get(window);
    }

    /**
     * Usage after a release from the given hour bucket: every window that still contains that hour
     * shrinks by it, the others stay as they are; never below zero.
     */
    public Usage minus(Tally released, Instant releasedBucket, Instant currentBucket) {
        Map<Window, Tally> next = new EnumMap<>(Window.class);
        byWindow.forEach((window, tally) ->
                next.put(window, window.contains(currentBucket, releasedBucket) ? tally.minus(released) : tally));
        return new Usage(next);
    }

    /** Usage after an approved event of this amount. */
    public Usage plus(long amount) {
        Map<Window, Tally> next = new EnumMap<>(Window.class);
        byWindow.forEach((window, tally) -> next.put(window, tally.plus(amount)));
        return new Usage(next);
    }
}
