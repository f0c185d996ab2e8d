package io.risklimits.decision;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneOffsetTransitionRule;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.List;

/**
 * Where each window starts, with the calendar windows ({@code day}, {@code week} from Monday, {@code
 * month}) in one zone. Buckets are UTC hours, so a zone is accepted only if its offset from UTC is a
 * whole number of hours (since 2000 and in its rules for the future): then every calendar window starts
 * on a bucket boundary, and its start changes only when an hour begins.
 */
public record WindowCalendar(ZoneId zone) {

    private static final Instant SINCE = Instant.parse("2000-01-01T00:00:00Z");

    public static final WindowCalendar UTC = new WindowCalendar(ZoneOffset.UTC);

    /** @throws IllegalArgumentException naming the zone, when an offset of it is not whole hours */
    public WindowCalendar {
        List<ZoneOffset> offsets = offsetsInUse(zone.getRules());
        for (ZoneOffset offset : offsets) {
            if (offset.getTotalSeconds() % 3600 != 0) {
                throw new IllegalArgumentException("time zone " + zone.getId() + " has the offset " + offset
                        + " from UTC, which is not a whole number of hours: usage is kept in UTC hours, so a day,"
                        + " week or month in this zone would not start on an hour");
            }
        }
    }

    /** The hour the window starts with, when it ends with the given hour bucket; not for {@code txn}. */
    public Instant startFor(Window window, Instant currentBucket) {
        return window.startFor(currentBucket, zone);
    }

    /** Whether the window ending with currentBucket contains the hour bucket. */
    public boolean contains(Window window, Instant currentBucket, Instant bucket) {
        return !bucket.isBefore(startFor(window, currentBucket));
    }

    private static List<ZoneOffset> offsetsInUse(ZoneRules rules) {
        List<ZoneOffset> offsets = new ArrayList<>();
        offsets.add(rules.getOffset(SINCE));
        for (ZoneOffsetTransition transition : rules.getTransitions()) {
            if (!transition.getInstant().isBefore(SINCE)) {
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
