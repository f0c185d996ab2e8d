package io.risklimits.decision.store;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Window;
import io.risklimits.decision.WindowCalendar;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcOperations;

/**
 * Usage of scope keys for an operator, read as the decider reads it ({@link RunningUsageRepository}: the same
 * windows, the same running totals) but taking no lock and remembering nothing. Consistent only within one
 * snapshot: the caller reads in a REPEATABLE READ transaction, so that no decision lands between the reads.
 */
public final class UsageLookup {

    private static final String CURRENT_BUCKET = """
            SELECT date_trunc('hour', clock_timestamp() AT TIME ZONE 'UTC') AS bucket
            """;

    private final JdbcOperations jdbc;
    private final WindowCalendar calendar;

    public UsageLookup(JdbcOperations jdbc, WindowCalendar calendar) {
        this.jdbc = jdbc;
        this.calendar = calendar;
    }

    /** The hour bucket a decision made now would be counted in: the database clock's UTC hour. */
    public Instant currentBucket() {
        return jdbc.queryForObject(CURRENT_BUCKET, (rs, rowNum) -> SqlTime.instantFromUtcTimestamp(rs, "bucket"));
    }

    /**
     * The usage of each scope key in every window that ends with the hour bucket (none for a key without
     * buckets), with when each calendar window starts again.
     */
    public Map<ScopeKey, Usage> usageUpTo(List<ScopeKey> keys, Instant bucket) {
        RunningUsageRepository reader = new RunningUsageRepository(
                jdbc, calendar, new WindowStartsCache(0), new DecisionStoreMetrics(new SimpleMeterRegistry()));
        Map<ScopeKey, Usage> read = reader.usageUpTo(keys, bucket).usage();
        Map<Window, Instant> resets = calendar.resetsAfter(bucket);
        Map<ScopeKey, Usage> usage = new HashMap<>();
        for (ScopeKey key : keys) {
            usage.put(key, read.getOrDefault(key, Usage.NONE).withResets(resets));
        }
        return usage;
    }
}
