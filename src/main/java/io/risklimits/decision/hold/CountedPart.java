package io.risklimits.decision.hold;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * One amount counted for an authorization in one hourly bucket, and how much of it has been given back
 * to that bucket since: 0 <= released <= amount, always.
 */
public record CountedPart(PartKind kind, Instant hour, long amount, long released) {

    public CountedPart {
        Objects.requireNonNull(kind, "kind");
        requireWholeHour(hour);
        if (amount < 1) {
            throw new IllegalArgumentException("a counted part has a positive amount: " + amount);
        }
        if (released < 0 || released > amount) {
            throw new IllegalArgumentException("released " + released + " is not within 0.." + amount);
        }
    }

    /** What of this part is still counted in its hour. */
    public long counted() {
        return amount - released;
    }

    CountedPart release(long more) {
        return new CountedPart(kind, hour, amount, released + more);
    }

    static void requireWholeHour(Instant hour) {
        Objects.requireNonNull(hour, "hour");
        if (!hour.equals(hour.truncatedTo(ChronoUnit.HOURS))) {
            throw new IllegalArgumentException("not the start of an hour bucket: " + hour);
        }
    }
}
