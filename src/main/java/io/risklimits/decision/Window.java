package io.risklimits.decision;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.TemporalAdjusters;
import java.util.Arrays;
import java.util.List;

/**
 * The limit windows, in the order they are checked: a cap on one authorization's amount ({@code txn}),
 * the rolling windows (a number of hourly buckets ending with the decision's bucket) and the calendar
 * windows (from the start of the current day, week or month in a zone, see {@link WindowCalendar}).
 */
public enum Window {
    TXN("txn", Kind.SINGLE_AUTHORIZATION, 0, Reason.LIMIT_TXN_AMOUNT, null),
    LAST_24_HOURS("24h", Kind.ROLLING, 24, Reason.LIMIT_24H_AMOUNT, Reason.LIMIT_24H_COUNT),
    LAST_7_DAYS("7d", Kind.ROLLING, 7 * 24, Reason.LIMIT_7D_AMOUNT, Reason.LIMIT_7D_COUNT),
    LAST_30_DAYS("30d", Kind.ROLLING, 30 * 24, Reason.LIMIT_30D_AMOUNT, Reason.LIMIT_30D_COUNT),
    // a calendar window is longer than its nominal hours by the largest daylight-saving shift of any
    // zone (2 hours), so its longest span is given with that margin
    DAY("day", Kind.CALENDAR, 24 + 2, Reason.LIMIT_DAY_AMOUNT, Reason.LIMIT_DAY_COUNT),
    WEEK("week", Kind.CALENDAR, 7 * 24 + 2, Reason.LIMIT_WEEK_AMOUNT, Reason.LIMIT_WEEK_COUNT),
    MONTH("month", Kind.CALENDAR, 31 * 24 + 2, Reason.LIMIT_MONTH_AMOUNT, Reason.LIMIT_MONTH_COUNT);

    /** Every window, in Window order: one list to iterate on the hot path, where values() copies its array. */
    public static final List<Window> ALL = List.of(values());

    /** The windows that count usage (all but txn), in Window order. */
    public static final List<Window> USAGE_WINDOWS =
            Arrays.stream(values()).filter(Window::countsUsage).toList();

    private enum Kind {
        SINGLE_AUTHORIZATION,
        ROLLING,
        CALENDAR
    }

    private final String label;
    private final Kind kind;
    private final int longestHours;
    private final Reason amountExceeded;
    private final Reason countExceeded;

    Window(String label, Kind kind, int longestHours, Reason amountExceeded, Reason countExceeded) {
        this.label = label;
        this.kind = kind;
        this.longestHours = longestHours;
        this.amountExceeded = amountExceeded;
        this.countExceeded = countExceeded;
    }

    /** The name used in messages and in risk_limit.window_name. */
    public String label() {
        return label;
    }

    /** Whether the window sums usage over hourly buckets: every window but {@code txn}. */
    public boolean countsUsage() {
        return kind != Kind.SINGLE_AUTHORIZATION;
    }

    /**
     * The most hourly buckets the window can span (0 for {@code txn}): what the archiver must keep so
     * that no window ever loses a bucket.
     */
    public Duration longestSpan() {
        return Duration.ofHours(longestHours);
    }

    public Reason amountExceeded() {
        return amountExceeded;
    }

    /** null for {@code txn}, whose maximum count is ignored. */
    public Reason countExceeded() {
        return countExceeded;
    }

    /**
     * The hour the window starts with, when it ends with the given hour bucket; calendar windows in the
     * zone. Not for {@code txn}, which sums nothing.
     */
    Instant startFor(Instant currentBucket, ZoneId zone) {
        return switch (this) {
            case LAST_24_HOURS, LAST_7_DAYS, LAST_30_DAYS -> currentBucket.minus(Duration.ofHours(longestHours - 1L));
            case DAY -> startOfDay(currentBucket, zone).toInstant();
            case WEEK ->
                startOfDay(currentBucket, zone)
                        .with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY))
                        .toLocalDate()
                        .atStartOfDay(zone)
                        .toInstant();
            case MONTH ->
                startOfDay(currentBucket, zone)
                        .withDayOfMonth(1)
                        .toLocalDate()
                        .atStartOfDay(zone)
                        .toInstant();
            case TXN -> throw new UnsupportedOperationException("the txn window sums no usage");
        };
    }

    /**
     * When the calendar window that ends with the given hour bucket starts again: the next day's, week's
     * or month's midnight in the zone; null for the rolling windows and {@code txn}, which never reset.
     */
    Instant resetFor(Instant currentBucket, ZoneId zone) {
        if (kind != Kind.CALENDAR) {
            return null;
        }
        ZonedDateTime start = startFor(currentBucket, zone).atZone(zone);
        return switch (this) {
            case DAY -> start.toLocalDate().plusDays(1).atStartOfDay(zone).toInstant();
            case WEEK -> start.toLocalDate().plusWeeks(1).atStartOfDay(zone).toInstant();
            case MONTH -> start.toLocalDate().plusMonths(1).atStartOfDay(zone).toInstant();
            default -> throw new IllegalStateException(label + " is no calendar window");
        };
    }

    private static ZonedDateTime startOfDay(Instant instant, ZoneId zone) {
        return instant.atZone(zone).toLocalDate().atStartOfDay(zone);
    }

    public static Window fromLabel(String label) {
        for (Window window : values()) {
            if (window.label.equals(label)) {
                return window;
            }
        }
        throw new IllegalArgumentException("unknown window " + label);
    }
}
