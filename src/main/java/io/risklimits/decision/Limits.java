package io.risklimits.decision;

import java.util.Map;

/** The limit of every window that applies to one business key. */
public record Limits(Map<Window, Limit> byWindow) {

    public static final Limits NONE = new Limits(Map.of());

    public Limits {
        byWindow = Map.copyOf(byWindow);
    }

    public Limit of(Window window) {
        return byWindow.getOrDefault(window, Limit.UNLIMITED);
    }
}
