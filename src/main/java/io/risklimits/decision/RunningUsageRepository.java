package io.risklimits.decision;

import static io.risklimits.decision.HourlyUsageRepository.windowStart;
import static io.risklimits.decision.SqlTime.instantFromUtcTimestamp;
import static io.risklimits.decision.SqlTime.utcTimestamp;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Rolling usage of many business keys at once, from the running totals of risk_hourly_agg (V2):
 * usage of a window = the latest bucket's running total - the running total before the window's
 * first bucket. That second total (the key's {@link WindowStarts}) costs three index probes, which
 * are index-only scans (V9: the primary key carries each bucket's totals before it), and stays the same
 * for the whole hour, so it is read once per key and hour and then remembered ({@link
 * WindowStartsCache}); the latest bucket is read every time. The latest bucket is returned too, so that
 * the bucket write need not look it up again.
 */
@Repository
class RunningUsageRepository {

    // The running totals before a window are those before its first bucket; without a bucket in the
    // window, those of the latest bucket (older than the window); without any bucket, zero. For a key
    // whose window starts are remembered (read_starts false) the three window probes do not run and
    // the amount_before_* and count_before_* columns are not used. bucket_in_24h: the key has a bucket
    // inside every window, so its starts may be remembered (WindowStarts).
    // Buckets after the decision's bucket are counted too, as in HourlyUsageRepository.
    private static final String SELECT_USAGE = """
            SELECT key.entity_id, key.channel_code, key.direction_code,
                   latest.bucket_ts AS latest_bucket_ts, latest.running_amount AS latest_running_amount,
                   latest.running_count AS latest_running_count,
                   coalesce(since_24h.amount_before, latest.running_amount, 0) AS amount_before_24h,
                   coalesce(since_24h.count_before, latest.running_count, 0)   AS count_before_24h,
                   coalesce(since_7d.amount_before, latest.running_amount, 0)  AS amount_before_7d,
                   coalesce(since_7d.count_before, latest.running_count, 0)    AS count_before_7d,
                   coalesce(since_30d.amount_before, latest.running_amount, 0) AS amount_before_30d,
                   coalesce(since_30d.count_before, latest.running_count, 0)   AS count_before_30d,
                   since_24h.amount_before IS NOT NULL                         AS bucket_in_24h
            FROM unnest(CAST(:entityIds AS uuid[]), CAST(:channels AS text[]), CAST(:directions AS text[]),
                        CAST(:readStarts AS boolean[]))
                 AS key (entity_id, channel_code, direction_code, read_starts)
            LEFT JOIN LATERAL (SELECT bucket_ts, running_amount, running_count
                               FROM risk_hourly_agg bucket
                               WHERE bucket.entity_id = key.entity_id
                                 AND bucket.channel_code = key.channel_code
                                 AND bucket.direction_code = key.direction_code
                               ORDER BY bucket.bucket_ts DESC
                               LIMIT 1) AS latest ON true
            LEFT JOIN LATERAL (SELECT amount_before, count_before
                               FROM risk_hourly_agg bucket
                               WHERE key.read_starts
                                 AND bucket.entity_id = key.entity_id
                                 AND bucket.channel_code = key.channel_code
                                 AND bucket.direction_code = key.direction_code
                                 AND bucket.bucket_ts >= :since24h
                               ORDER BY bucket.bucket_ts
                               LIMIT 1) AS since_24h ON true
            LEFT JOIN LATERAL (SELECT amount_before, count_before
                               FROM risk_hourly_agg bucket
                               WHERE key.read_starts
                                 AND bucket.entity_id = key.entity_id
                                 AND bucket.channel_code = key.channel_code
                                 AND bucket.direction_code = key.direction_code
                                 AND bucket.bucket_ts >= :since7d
                               ORDER BY bucket.bucket_ts
                               LIMIT 1) AS since_7d ON true
            LEFT JOIN LATERAL (SELECT amount_before, count_before
                               FROM risk_hourly_agg bucket
                               WHERE key.read_starts
                                 AND bucket.entity_id = key.entity_id
                                 AND bucket.channel_code = key.channel_code
                                 AND bucket.direction_code = key.direction_code
                                 AND bucket.bucket_ts >= :since30d
                               ORDER BY bucket.bucket_ts
                               LIMIT 1) AS since_30d ON true
            """;

    private final JdbcClient jdbc;
    private final WindowStartsCache windowStarts;
    private final DeciderMetrics metrics;

    RunningUsageRepository(JdbcClient jdbc, WindowStartsCache windowStarts, DeciderMetrics metrics) {
        this.jdbc = jdbc;
        this.windowStarts = windowStarts;
        this.metrics = metrics;
    }

    /**
     * Usage of each key in each window that ends with the given hour bucket, and its latest bucket.
     * Only under the keys' locks: the latest bucket must not change until the transaction ends.
     */
    UsageReading usageUpTo(Collection<BusinessKey> keys, Instant bucket) {
        KeyArrays arrays = KeyArrays.of(keys);
        Map<BusinessKey, WindowStarts> remembered = new HashMap<>();
        Boolean[] readStarts = new Boolean[keys.size()];
        int i = 0;
        for (BusinessKey key : keys) {
            WindowStarts starts = windowStarts.find(key, bucket);
            if (starts != null) {
                remembered.put(key, starts);
            }
            readStarts[i++] = starts == null;
        }
        Map<BusinessKey, WindowStarts> lastingTheHour = new HashMap<>();
        Map<BusinessKey, Usage> usage = new HashMap<>();
        Map<BusinessKey, LatestBucket> latestBuckets = new HashMap<>();
        arrays.bindTo(jdbc.sql(SELECT_USAGE))
                .param("readStarts", readStarts)
                .param("since24h", utcTimestamp(windowStart(bucket, Window.LAST_24_HOURS)))
                .param("since7d", utcTimestamp(windowStart(bucket, Window.LAST_7_DAYS)))
                .param("since30d", utcTimestamp(windowStart(bucket, Window.LAST_30_DAYS)))
                .query(rs -> {
                    BusinessKey key = businessKey(rs);
                    LatestBucket latest = latestBucket(rs);
                    if (latest != null) {
                        latestBuckets.put(key, latest);
                    }
                    WindowStarts starts = remembered.get(key);
                    if (starts == null) {
                        starts = windowStarts(rs);
                        if (rs.getBoolean("bucket_in_24h")) {
                            lastingTheHour.put(key, starts);
                        }
                    }
                    usage.put(key, starts.usageUpTo(latest));
                });
        windowStarts.remember(lastingTheHour, bucket);
        // one row per key: the keys not remembered were read
        metrics.windowStartsFound(remembered.size(), keys.size() - remembered.size());
        return new UsageReading(usage, latestBuckets);
    }

    private static BusinessKey businessKey(ResultSet rs) throws SQLException {
        return new BusinessKey(
                rs.getObject("entity_id", UUID.class),
                rs.getString("channel_code"),
                Direction.valueOf(rs.getString("direction_code")));
    }

    private static LatestBucket latestBucket(ResultSet rs) throws SQLException {
        Instant bucketTs = instantFromUtcTimestamp(rs, "latest_bucket_ts");
        return bucketTs == null
                ? null
                : new LatestBucket(
                        bucketTs, rs.getBigDecimal("latest_running_amount"), rs.getLong("latest_running_count"));
    }

    private static WindowStarts windowStarts(ResultSet rs) throws SQLException {
        Map<Window, WindowStarts.Before> byWindow = new EnumMap<>(Window.class);
        for (Window window : Window.values()) {
            byWindow.put(
                    window,
                    new WindowStarts.Before(
                            rs.getBigDecimal("amount_before_" + window.label()),
                            rs.getLong("count_before_" + window.label())));
        }
        return new WindowStarts(byWindow);
    }
}
