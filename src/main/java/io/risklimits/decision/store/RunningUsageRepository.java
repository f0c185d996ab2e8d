package io.risklimits.decision.store;

import static io.risklimits.decision.store.SqlTime.utcTimestamp;

import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Window;
import io.risklimits.decision.WindowCalendar;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.stereotype.Repository;

/**
 * Usage of many scope keys at once in every window that counts usage, from the running totals of their
 * buckets, kept in chunks of up to 24 (V13; risk_hourly_chunk for business keys, risk_scope_hourly_chunk
 * for the other scopes, {@link BucketTable}): usage of a window = the latest bucket's running total - the
 * running total before the window's first bucket (rolling windows by hours, calendar windows in the {@link
 * WindowCalendar}'s zone). That second total (the key's {@link WindowStarts}) is picked from the key's
 * chunks from the one that holds its earliest window start on ({@link KeyChunks}); it stays the same for
 * the whole hour, so it is read once per key and hour and then remembered ({@link WindowStartsCache}),
 * and the latest bucket, the last of the newest chunk, is read every time. The latest bucket is returned
 * too, so that the bucket write need not look it up again. A key whose usage no limit checks (the
 * decider's caller says which) has its latest bucket read alone, for the write, and no usage: its window
 * starts are neither read nor remembered. The statements are in {@link UsageReadStatements}.
 */
@Repository
class RunningUsageRepository {

    private static final Logger log = LoggerFactory.getLogger(RunningUsageRepository.class);

    private static final BigDecimal UNREAD_BELOW = BigDecimal.valueOf(UsageReading.UNREAD_BELOW);

    // a key's row: its latest bucket (null without buckets), and its window starts as read, or as
    // remembered (startsRemembered), or null when no limit checks its usage
    private record KeyRow(
            ScopeKey key, LatestBucket latest, WindowStarts starts, boolean startsRemembered, boolean bucketIn24h) {}

    private final JdbcOperations jdbc;
    private final WindowCalendar calendar;
    private final WindowStartsCache windowStarts;
    private final DecisionStoreMetrics metrics;

    RunningUsageRepository(
            JdbcOperations jdbc,
            WindowCalendar calendar,
            WindowStartsCache windowStarts,
            DecisionStoreMetrics metrics) {
        this.jdbc = jdbc;
        this.calendar = calendar;
        this.windowStarts = windowStarts;
        this.metrics = metrics;
    }

    /**
     * Usage of each key in each window that ends with the given hour bucket, and its latest bucket.
     * Only under the keys' locks: the latest bucket must not change until the transaction ends.
     */
    UsageReading usageUpTo(Collection<ScopeKey> keys, Instant bucket) {
        return usageUpTo(keys, bucket, key -> true);
    }

    /**
     * As {@link #usageUpTo(Collection, Instant)}, with the usage only of the keys whose usage a limit checks
     * (usageChecked); the others' latest buckets alone, and {@link Usage#NONE}.
     */
    UsageReading usageUpTo(Collection<ScopeKey> keys, Instant bucket, Predicate<ScopeKey> usageChecked) {
        RoundTrip trip = new RoundTrip(jdbc);
        Supplier<UsageReading> reading = usageUpTo(keys, bucket, usageChecked, trip);
        trip.run();
        return reading.get();
    }

    /**
     * Adds the read of {@link #usageUpTo(Collection, Instant, Predicate)} to a round trip, after the keys'
     * locks. The reading is made, and the window starts read are remembered, when the answer is taken:
     * once, or not at all when it is not wanted.
     */
    Supplier<UsageReading> usageUpTo(
            Collection<ScopeKey> keys, Instant bucket, Predicate<ScopeKey> usageChecked, RoundTrip trip) {
        Map<BucketTable, List<ScopeKey>> byTable = new EnumMap<>(BucketTable.class);
        keys.forEach(key -> byTable.computeIfAbsent(BucketTable.of(key), table -> new ArrayList<>())
                .add(key));
        List<Supplier<UsageReading>> readings = new ArrayList<>();
        byTable.forEach((table, tableKeys) -> readings.add(usageUpTo(table, tableKeys, bucket, usageChecked, trip)));
        return () ->
                readings.stream().map(Supplier::get).reduce(UsageReading::and).orElse(UsageReading.NOTHING);
    }

    private Supplier<UsageReading> usageUpTo(
            BucketTable table, List<ScopeKey> keys, Instant bucket, Predicate<ScopeKey> usageChecked, RoundTrip trip) {
        // the keys whose latest bucket alone is read: their window starts remembered, or not needed
        // (unchecked: no limit checks their usage)
        Map<ScopeKey, WindowStarts> remembered = new HashMap<>();
        Set<ScopeKey> latestOnly = new HashSet<>();
        List<ScopeKey> unremembered = new ArrayList<>();
        for (ScopeKey key : keys) {
            if (!usageChecked.test(key)) {
                latestOnly.add(key);
                continue;
            }
            WindowStarts starts = windowStarts.find(key, bucket);
            if (starts == null) {
                unremembered.add(key);
            } else {
                remembered.put(key, starts);
                latestOnly.add(key);
            }
        }
        Supplier<List<KeyRow>> latestRows = latestOnly.isEmpty()
                ? List::of
                : trip.query(table.sql(UsageReadStatements.SELECT_LATEST), table.parameters(latestOnly), rs -> {
                    List<KeyRow> read = new ArrayList<>(latestOnly.size());
                    while (rs.next()) {
                        ScopeKey key = table.scopeKey(rs);
                        WindowStarts starts = remembered.get(key);
                        read.add(new KeyRow(key, latestBucket(rs), starts, starts != null, false));
                    }
                    return read;
                });
        Supplier<List<KeyRow>> startRows =
                unremembered.isEmpty() ? List::of : withWindowStarts(table, unremembered, bucket, trip);
        return () -> {
            List<KeyRow> rows = new ArrayList<>(latestRows.get());
            rows.addAll(startRows.get());
            return reading(rows, bucket);
        };
    }

    // the keys' rows with their window starts as read from their chunks
    private Supplier<List<KeyRow>> withWindowStarts(
            BucketTable table, List<ScopeKey> keys, Instant bucket, RoundTrip trip) {
        List<Instant> starts = windowStartInstants(bucket);
        Map<Window, Integer> firstHours = new EnumMap<>(Window.class);
        for (int i = 0; i < starts.size(); i++) {
            firstHours.put(Window.USAGE_WINDOWS.get(i), SqlTime.hourNumber(starts.get(i)));
        }
        int firstHourOf24h = firstHours.get(Window.USAGE_WINDOWS.get(0));
        MapSqlParameterSource parameters = table.parameters(keys)
                .addValue(
                        "earliestStart",
                        utcTimestamp(starts.stream().min(Instant::compareTo).orElseThrow())
                                .toString());
        return trip.query(table.sql(UsageReadStatements.SELECT_CHUNKS), parameters, rs -> {
            List<KeyRow> read = new ArrayList<>(keys.size());
            boolean more = rs.next();
            while (more) {
                long position = rs.getLong("position");
                ScopeKey key = table.scopeKey(rs);
                List<KeyChunks.Chunk> chunks = new ArrayList<>();
                while (more && rs.getLong("position") == position) {
                    if (rs.getString("row_id") != null) {
                        chunks.add(chunk(rs));
                    }
                    more = rs.next();
                }
                KeyChunks keyChunks = new KeyChunks(chunks);
                read.add(new KeyRow(
                        key,
                        keyChunks.latest(),
                        keyChunks.startsOf(firstHours),
                        false,
                        keyChunks.hasBucketSince(firstHourOf24h)));
            }
            return read;
        });
    }

    private static KeyChunks.Chunk chunk(ResultSet rs) throws SQLException {
        return new KeyChunks.Chunk(
                rs.getString("row_id"),
                (Integer[]) rs.getArray("hours").getArray(),
                (Long[]) rs.getArray("sums").getArray(),
                (Integer[]) rs.getArray("counts").getArray(),
                rs.getBigDecimal("amount_before"),
                rs.getLong("count_before"),
                rs.getBigDecimal("running_amount"),
                rs.getLong("running_count"),
                rs.getLong("rewrites"));
    }

    // the first hour of each window that counts usage, in Window order (24h first)
    private List<Instant> windowStartInstants(Instant bucket) {
        return Window.USAGE_WINDOWS.stream()
                .map(window -> calendar.startFor(window, bucket))
                .toList();
    }

    private UsageReading reading(List<KeyRow> rows, Instant bucket) {
        Map<ScopeKey, WindowStarts> lastingTheHour = new HashMap<>();
        Map<ScopeKey, Usage> usage = new HashMap<>();
        Map<ScopeKey, LatestBucket> latestBuckets = new HashMap<>();
        List<ScopeKey> rewritten = new ArrayList<>();
        int remembered = 0;
        int read = 0;
        Set<ScopeKey> unread = new HashSet<>();
        List<ScopeKey> nearTheLongRange = new ArrayList<>();
        for (KeyRow row : rows) {
            if (row.starts() == null) {
                // no limit checks its usage: its latest bucket, for the write; unless its running total
                // is so large that a window might be near the end of the long range, where a window
                // without a limit rejects: then its usage is read all the same
                if (row.latest() != null && row.latest().runningAmount().compareTo(UNREAD_BELOW) >= 0) {
                    nearTheLongRange.add(row.key());
                    continue;
                }
                if (row.latest() != null) {
                    latestBuckets.put(row.key(), row.latest());
                }
                usage.put(row.key(), Usage.NONE);
                unread.add(row.key());
                continue;
            }
            boolean startsRemembered = row.startsRemembered();
            WindowStarts starts = row.starts();
            if (startsRemembered) {
                remembered++;
            } else {
                read++;
            }
            if (startsRemembered && !starts.holdFor(row.latest())) {
                rewritten.add(row.key());
                continue;
            }
            Optional<Usage> keyUsage = starts.usageUpTo(row.latest());
            if (keyUsage.isEmpty() && startsRemembered) {
                // the key's history changed without counting a rewrite: a writer that keeps the running
                // totals itself and does not count as docs/operations.md says
                log.warn(
                        "Window starts remembered for {} give a usage below zero although its rewrites did not"
                                + " change: a writer of its buckets did not count its rewrite; read again",
                        row.key());
                rewritten.add(row.key());
                continue;
            }
            if (keyUsage.isEmpty()) {
                // read in one snapshot under the key's lock, a window's usage is the sum of its buckets,
                // which the table keeps at zero or more: the running totals do not add up to the buckets
                throw new IllegalStateException("the running totals of " + row.key() + " in "
                        + BucketTable.of(row.key()).sql("{table}")
                        + " give a window a usage below zero: they disagree with its buckets");
            }
            if (row.latest() != null) {
                latestBuckets.put(row.key(), row.latest());
            }
            if (row.bucketIn24h()) {
                lastingTheHour.put(row.key(), starts);
            }
            usage.put(row.key(), keyUsage.get());
        }
        windowStarts.remember(lastingTheHour, bucket);
        metrics.windowStartsFound(remembered - rewritten.size(), read, unread.size());
        windowStarts.forget(rewritten, bucket);
        // history was rewritten since their starts were remembered (a release, here or in another worker),
        // or the starts give a usage below zero, which no history has; or a key near the long range: read in
        // full, in this transaction and under the same locks
        rewritten.addAll(nearTheLongRange);
        if (!rewritten.isEmpty()) {
            UsageReading reread = usageUpTo(rewritten, bucket);
            usage.putAll(reread.usage());
            latestBuckets.putAll(reread.latestBuckets());
        }
        return new UsageReading(usage, latestBuckets, unread);
    }

    private static LatestBucket latestBucket(ResultSet rs) throws SQLException {
        int hour = rs.getInt("latest_hour");
        return rs.wasNull()
                ? null
                : new LatestBucket(
                        SqlTime.hourInstant(hour),
                        rs.getBigDecimal("latest_running_amount"),
                        rs.getLong("latest_running_count"),
                        rs.getLong("latest_rewrites"),
                        rs.getString("latest_row_id"),
                        rs.getInt("latest_chunk_buckets"));
    }
}
