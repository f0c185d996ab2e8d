package io.risklimits.decision.hold;

import io.risklimits.decision.Tally;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/** An amount and a count given back to, or counted in, one hourly bucket. */
public record HourTally(Instant hour, Tally tally) {

    public HourTally {
        Objects.requireNonNull(tally, "tally");
        CountedPart.requireWholeHour(hour);
    }

    /** The hour bucket an instant is counted in (UTC hours, as the buckets are). */
    public static Instant hourOf(Instant instant) {
        return instant.truncatedTo(ChronoUnit.HOURS);
    }
}
