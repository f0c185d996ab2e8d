package io.risklimits.decision.store;

import io.risklimits.decision.InstantText;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Instants to and from PostgreSQL: timestamptz columns, and timestamp columns that hold UTC. */
final class SqlTime {

    private SqlTime() {}

    static OffsetDateTime timestamptz(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    /**
     * An instant as the text of a timestamptz, for the arrays that batches unnest: ISO 8601 in UTC, the
     * same instant that {@link #timestamptz} names to the driver. Both hold for the instants the event
     * reader accepts, from 0001-01-01T00:00:00Z on: PostgreSQL has no year 0, and refuses the text of
     * an earlier one.
     */
    static String timestamptzText(Instant instant) {
        return InstantText.of(instant);
    }

    static LocalDateTime utcTimestamp(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    static Instant instantFromTimestamptz(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    /** A bucket's hour as the chunks keep it (V13): hours since 1970-01-01T00:00Z. */
    static int hourNumber(Instant bucket) {
        long seconds = bucket.getEpochSecond();
        if (seconds % 3600 != 0 || bucket.getNano() != 0) {
            throw new IllegalArgumentException(bucket + " is not the start of an hour");
        }
        return Math.toIntExact(seconds / 3600);
    }

    /** The hour of a chunk's bucket (V13) as an instant. */
    static Instant hourInstant(int hourNumber) {
        return Instant.ofEpochSecond(hourNumber * 3600L);
    }

    static Instant instantFromUtcTimestamp(ResultSet rs, String column) throws SQLException {
        LocalDateTime value = rs.getObject(column, LocalDateTime.class);
        return value == null ? null : value.toInstant(ZoneOffset.UTC);
    }
}
