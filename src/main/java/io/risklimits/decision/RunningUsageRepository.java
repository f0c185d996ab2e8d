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
 * first bucket. Four index probes per key, whatever the length of its history; the three window probes
 * are index-only scans (V9: the primary key carries each bucket's totals before it). The latest bucket
 * is returned too, so that the bucket write need not look it up again.
 */
@Repository
class RunningUsageRepository {

    // Buckets after the decision's bucket are counted too, as in HourlyUsageRepository.
    private static final String SELECT_USAGE = """
            SELECT key.entity_id, key.channel_code, key.direction_code,
                   latest.bucket_ts AS latest_bucket_ts, latest.running_amount AS latest_running_amount,
                   latest.running_count AS latest_running_count,
                   coalesce(latest.running_amount - since_24h.amount_before, 0) AS amount_24h,
                   coalesce(latest.running_count - since_24h.count_before, 0)   AS count_24h,
                   coalesce(latest.running_amount - since_7d.amount_before, 0)  AS amount_7d,
                   coalesce(latest.running_count - since_7d.count_before, 0)    AS count_7d,
                   coalesce(latest.running_amount - since_30d.amount_before, 0) AS amount_30d,
                   coalesce(latest.running_count - since_30d.count_before, 0)   AS count_30d
            FROM unnest(CAST(:entityIds AS uuid[]), CAST(:channels AS text[]), CAST(:directions AS text[]))
                 AS key (entity_id, channel_code, direction_code)
            LEFT JOIN LATERAL (SELECT bucket_ts, running_amount, running_count
                               FROM risk_hourly_agg bucket
                               WHERE bucket.entity_id = key.entity_id
                                 AND bucket.channel_code = key.channel_code
                                 AND bucket.direction_code = key.direction_code
                               ORDER BY bucket.bucket_ts DESC
                               LIMIT 1) AS latest ON true
            LEFT JOIN LATERAL (SELECT amount_before, count_before
                               FROM risk_hourly_agg bucket
                               WHERE bucket.entity_id = key.entity_id
                                 AND bucket.channel_code = key.channel_code
                                 AND bucket.direction_code = key.direction_code
                                 AND bucket.bucket_ts >= :since24h
                               ORDER BY bucket.bucket_ts
                               LIMIT 1) AS since_24h ON true
            LEFT JOIN LATERAL (SELECT amount_before, count_before
                               FROM risk_hourly_agg bucket
                               WHERE bucket.entity_id = key.entity_id
                                 AND bucket.channel_code = key.channel_code
                                 AND bucket.direction_code = key.direction_code
                                 AND bucket.bucket_ts >= :since7d
                               ORDER BY bucket.bucket_ts
                               LIMIT 1) AS since_7d ON true
            LEFT JOIN LATERAL (SELECT amount_before, count_before
                               FROM risk_hourly_agg bucket
                               WHERE bucket.entity_id = key.entity_id
                                 AND bucket.channel_code = key.channel_code
                                 AND bucket.direction_code = key.direction_code
                                 AND bucket.bucket_ts >= :since30d
                               ORDER BY bucket.bucket_ts
                               LIMIT 1) AS since_30d ON true
            """;

    private final JdbcClient jdbc;

    RunningUsageRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Usage of each key in each window that ends with the given hour bucket, and its latest bucket. */
    UsageReading usageUpTo(Collection<BusinessKey> keys, Instant bucket) {
        KeyArrays arrays = KeyArrays.of(keys);
        Map<BusinessKey, Usage> usage = new HashMap<>();
        Map<BusinessKey, LatestBucket> latestBuckets = new HashMap<>();
        arrays.bindTo(jdbc.sql(SELECT_USAGE))
                .param("since24h", utcTimestamp(windowStart(bucket, Window.LAST_24_HOURS)))
                .param("since7d", utcTimestamp(windowStart(bucket, Window.LAST_7_DAYS)))
                .param("since30d", utcTimestamp(windowStart(bucket, Window.LAST_30_DAYS)))
                .query(rs -> {
                    BusinessKey key = businessKey(rs);
                    usage.put(key, usage(rs));
                    Instant latestBucket = instantFromUtcTimestamp(rs, "latest_bucket_ts");
                    if (latestBucket != null) {
                        latestBuckets.put(
                                key,
                                new LatestBucket(
                                        latestBucket,
                                        rs.getBigDecimal("latest_running_amount"),
                                        rs.getLong("latest_running_count")));
                    }
                });
        return new UsageReading(usage, latestBuckets);
    }

    private static BusinessKey businessKey(ResultSet rs) throws SQLException {
        return new BusinessKey(
                rs.getObject("entity_id", UUID.class),
                rs.getString("channel_code"),
                Direction.valueOf(rs.getString("direction_code")));
    }

    private static Usage usage(ResultSet rs) throws SQLException {
        Map<Window, Tally> byWindow = new EnumMap<>(Window.class);
        byWindow.put(Window.LAST_24_HOURS, new Tally(rs.getLong("amount_24h"), rs.getLong("count_24h")));
        byWindow.put(Window.LAST_7_DAYS, new Tally(rs.getLong("amount_7d"), rs.getLong("count_7d")));
        byWindow.put(Window.LAST_30_DAYS, new Tally(rs.getLong("amount_30d"), rs.getLong("count_30d")));
        return new Usage(byWindow);
    }
}
