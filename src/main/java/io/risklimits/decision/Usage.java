package io.risklimits.decision;

import java.util.EnumMap;
import java.util.Map;

/** Usage of one business key in every window, before the event being decided. */
public record Usage(Map<Window, Tally> byWindow) {

    public static final Usage NONE = new Usage(
            Map.of(Window.LAST_24_HOURS, Tally.ZERO, Window.LAST_7_DAYS, Tally.ZERO, Window.LAST_30_DAYS, Tally.ZERO));

    public Usage {
        byWindow = Map.copyOf(byWindow);
        for (Window window : Window.values()) {
            if (!byWindow.containsKey(window)) {
                throw new IllegalArgumentException("usage lacks window " + window.label());
            }
        }
    }

    public Tally of(Window window) {
        return byWindow.get(window);
    }

    /** Usage after an approved event of this amount. */
    public Usage plus(long amount) {
        Map<Window, Tally> next = new EnumMap<>(Window.class);
        byWindow.forEach((window, tally) -> next.put(window, tally.plus(amount)));
        return new Usage(next);
    }
}
