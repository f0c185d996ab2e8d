package io.risklimits.decision;

import java.time.Duration;
import java.time.Instant;

/** The rolling windows, each a number of hourly buckets ending with the decision's bucket. */
public enum Window {
    LAST_24_HOURS("24h", 24, Reason.LIMIT_24H_AMOUNT, Reason.LIMIT_24H_COUNT),
    LAST_7_DAYS("7d", 7 * 24, Reason.LIMIT_7D_AMOUNT, Reason.LIMIT_7D_COUNT),
    LAST_30_DAYS("30d", 30 * 24, Reason.LIMIT_30D_AMOUNT, Reason.LIMIT_30D_COUNT);

    private final String label;
    private final int hours;
    private final Reason amountExceeded;
    private final Reason countExceeded;

    Window(String label, int hours, Reason amountExceeded, Reason countExceeded) {
        this.label = label;
        this.hours = hours;
        this.amountExceeded = amountExceeded;
        this.countExceeded = countExceeded;
    }

    /** The name used in messages and in risk_limit.window_name. */
    public String label() {
        return label;
    }

    public int hours() {
        return hours;
    }

    public Reason amountExceeded() {
        return amountExceeded;
    }

    public Reason countExceeded() {
        return countExceeded;
    }

    /** The hour the window starts with, when it ends with the given hour bucket. */
    public Instant startFor(Instant currentBucket) {
        return currentBucket.minus(Duration.ofHours(hours - 1L));
    }

    /** Whether the window ending with currentBucket contains the hour bucket. */
    public boolean contains(Instant currentBucket, Instant bucket) {
        return !bucket.isBefore(startFor(currentBucket));
    }

    public static Window fromLabel(String label) {
        for (Window window : values()) {
            if (window.label.equals(label)) {
                return window;
            }
        }
        throw new IllegalArgumentException("unknown window " + label);
    }

    public static Window longest() {
        return LAST_30_DAYS;
    }
}
