package io.risklimits.decision.store;

import static io.risklimits.decision.store.SqlTime.utcTimestamp;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Tally;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Window;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The seed's way with hourly buckets: usage summed over every bucket of each window, and an approved
 * amount added to its bucket with a plain upsert (the running totals left to the table's triggers).
 * The tests compare the running totals against it; the benchmark's baseline decides with it.
 */
public final class SummedUsage {

    // Buckets after the decision's bucket are counted too: if the database clock ever stepped back,
    // usage is overstated, never understated.
    private static final String SELECT_USAGE = """
            SELECT coalesce(sum(sum_amount) FILTER (WHERE bucket_ts >= :since24h), 0) AS amount_24h,
                   coalesce(sum(tx_count)   FILTER (WHERE bucket_ts >= :since24h), 0) AS count_24h,
                   coalesce(sum(sum_amount) FILTER (WHERE bucket_ts >= :since7d), 0)  AS amount_7d,
                   coalesce(sum(tx_count)   FILTER (WHERE bucket_ts >= :since7d), 0)  AS count_7d,
                   coalesce(sum(sum_amount), 0)                                        AS amount_30d,
                   coalesce(sum(tx_count), 0)                                          AS count_30d
            FROM risk_hourly_agg
            WHERE entity_id = :entityId
              AND channel_code = :channel
              AND direction_code = :direction
              AND bucket_ts >= :since30d
            """;

    private static final String ADD_TO_BUCKET = """
            INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
            VALUES (:entityId, :channel, :direction, :bucket, :amount, 1)
            ON CONFLICT (entity_id, channel_code, direction_code, bucket_ts)
            DO UPDATE SET sum_amount = risk_hourly_agg.sum_amount + EXCLUDED.sum_amount,
                          tx_count   = risk_hourly_agg.tx_count + EXCLUDED.tx_count
            """;

    private final JdbcClient jdbc;

    public SummedUsage(DataSource dataSource) {
        this.jdbc = JdbcClient.create(dataSource);
    }

    /** Usage in each window that ends with the given hour bucket (the bucket included). */
    public Usage usageUpTo(BusinessKey key, Instant bucket) {
        return jdbc.sql(SELECT_USAGE)
                .param("entityId", key.entityId())
                .param("channel", key.channel())
                .param("direction", key.direction().name())
                .param("since24h", utcTimestamp(Window.LAST_24_HOURS.startFor(bucket)))
                .param("since7d", utcTimestamp(Window.LAST_7_DAYS.startFor(bucket)))
                .param("since30d", utcTimestamp(Window.LAST_30_DAYS.startFor(bucket)))
                .query((rs, rowNum) -> {
                    Map<Window, Tally> byWindow = new EnumMap<>(Window.class);
                    byWindow.put(Window.LAST_24_HOURS, new Tally(rs.getLong("amount_24h"), rs.getLong("count_24h")));
                    byWindow.put(Window.LAST_7_DAYS, new Tally(rs.getLong("amount_7d"), rs.getLong("count_7d")));
                    byWindow.put(Window.LAST_30_DAYS, new Tally(rs.getLong("amount_30d"), rs.getLong("count_30d")));
                    return new Usage(byWindow);
                })
                .single();
    }

    public void addToBucket(BusinessKey key, Instant bucket, long amount) {
        jdbc.sql(ADD_TO_BUCKET)
                .param("entityId", key.entityId())
                .param("channel", key.channel())
                .param("direction", key.direction().name())
                .param("bucket", utcTimestamp(bucket))
                .param("amount", amount)
                .update();
    }
}
