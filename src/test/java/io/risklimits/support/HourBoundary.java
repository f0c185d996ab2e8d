package io.risklimits.support;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.awaitility.Awaitility;

/**
 * The archive cutoff moves forward an hour at every full hour of the database clock (the machine's
 * clock here). A test that computes the cutoff and then expects exact windows starts clear of the
 * next hour, so the cutoff cannot move under it.
 */
public final class HourBoundary {

    private HourBoundary() {}

    /** Returns at once if the next full hour is more than {@code needed} away; else after it has passed. */
    public static void awaitClearOfTheNextHour(Duration needed) {
        Instant nextHour = Instant.now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(1));
        if (Duration.between(Instant.now(), nextHour).compareTo(needed) < 0) {
            Awaitility.await("the full hour to pass")
                    .atMost(needed.plusSeconds(10))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> Instant.now().isAfter(nextHour.plusSeconds(1)));
        }
    }
}
