package io.risklimits.decision;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneOffsetTransitionRule;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Where each window starts, with the calendar windows ({@code day}, {@code week} from Monday, {@code
 * month}) in one zone. Buckets are UTC hours, so a configured zone is accepted ({@link #checked}) only if
 * its offset from UTC is a whole number of hours at every instant a window can reach: from now minus
 * the retention on, the zone's known future transitions included. Then every calendar window starts on
 * a bucket boundary, and its start changes only when an hour begins. Fractional offsets a zone had
 * before that (America/Caracas until 2016) concern hours that are no longer kept.
 */
public record WindowCalendar(ZoneId zone) {

    public static final WindowCalendar UTC = new WindowCalendar(ZoneOffset.UTC);

    /**
     * The calendar of the configured zone, judged from the clock's now minus the retention on.
     *
     * @throws IllegalArgumentException naming the zone, its offset and the rule, when an offset of the zone
     *     in that time is not whole hours
     */
    public static WindowCalendar checked(ZoneId zone, Duration retention, Clock clock) {
        Instant since = clock.instant().minus(retention);
        for (ZoneOffset offset : offsetsFrom(zone.getRules(), since)) {
            if (offset.getTotalSeconds() % 3600 != 0) {
                throw new IllegalArgumentException("time zone " + zone.getId() + " has the offset " + offset
                        + " from UTC, which is not a whole number of hours, at some time from " + since
                        + " on: usage is kept in UTC hours, so a day, week or month in this zone would not start"
                        + " on an hour (risk.limits.time-zone must be a zone whose offset is whole hours from now"
                        + " minus risk.retention on, its known future changes included)");
            }
        }
        return new WindowCalendar(zone);
    }

    /** The hour the window starts with, when it ends with the given hour bucket; not for {@code txn}. */
    public Instant startFor(Window window, Instant currentBucket) {
        return window.startFor(currentBucket, zone);
    }

    /**
     * When each calendar window that ends with the given hour bucket starts again (its next midnight in
     * the zone); the rolling windows, which never reset, are absent.
     */
    public Map<Window, Instant> resetsAfter(Instant currentBucket) {
        Map<Window, Instant> resets = new EnumMap<>(Window.class);
        for (Window window : Window.values()) {
            Instant reset = window.resetFor(currentBucket, zone);
            if (reset != null) {
                resets.put(window, reset);
            }
        }
        return Map.copyOf(resets);
    }

    /** Whether the window ending with currentBucket contains the hour bucket. */
    public boolean contains(Window window, Instant currentBucket, Instant bucket) {
        return !bucket.isBefore(startFor(window, currentBucket));
    }

    /** The offset at {@code since}, and after every transition from then on, listed or by the future rules. */
    private static List<ZoneOffset> offsetsFrom(ZoneRules rules, Instant since) {
        List<ZoneOffset> offsets = new ArrayList<>();
        offsets.add(rules.getOffset(since));
        for (ZoneOffsetTransition transition : rules.getTransitions()) {
            if (transition.getInstant().isAfter(since)) {
                offsets.add(transition.getOffsetAfter());
            }
        }
        for (ZoneOffsetTransitionRule rule : rules.getTransitionRules()) {
            offsets.add(rule.getOffsetBefore());
            offsets.add(rule.getOffsetAfter());
        }
        return offsets;
    }
}
