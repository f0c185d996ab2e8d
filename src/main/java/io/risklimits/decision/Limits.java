package io.risklimits.decision;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/** The limit of every window that applies to one business key. */
public record Limits(Map<Window, Limit> byWindow) {

    public static final Limits NONE = new Limits(Map.of());

    // an EnumMap, as in Usage
    public Limits {
        Map<Window, Limit> copy = new EnumMap<>(Window.class);
        byWindow.forEach((window, limit) -> copy.put(Objects.requireNonNull(window), Objects.requireNonNull(limit)));
        byWindow = Collections.unmodifiableMap(copy);
    }

    public Limit of(Window window) {
        return byWindow.getOrDefault(window, Limit.UNLIMITED);
    }
}
