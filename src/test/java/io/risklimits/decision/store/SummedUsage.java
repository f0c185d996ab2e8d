package io.risklimits.decision.store;

import static io.risklimits.decision.store.SqlTime.utcTimestamp;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Tally;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Window;
import io.risklimits.decision.WindowCalendar;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.EnumMap;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Hourly buckets read the plain way: usage summed over every bucket of each window, and an approved
 * amount added to its bucket with a plain upsert (the running totals left to the table's triggers).
 * The tests compare the running totals against it; the benchmark's baseline decides with it.
 */
public final class SummedUsage {

    // Buckets after the decision's bucket are counted too: if the database clock ever stepped back,
    // usage is overstated, never understated.
    private static final String SELECT_USAGE = """
            SELECT coalesce(sum(sum_amount) FILTER (WHERE bucket_ts >= :since24h), 0)   AS amount_24h,
                   coalesce(sum(tx_count)   FILTER (WHERE bucket_ts >= :since24h), 0)   AS count_24h,
                   coalesce(sum(sum_amount) FILTER (WHERE bucket_ts >= :since7d), 0)    AS amount_7d,
                   coalesce(sum(tx_count)   FILTER (WHERE bucket_ts >= :since7d), 0)    AS count_7d,
                   coalesce(sum(sum_amount) FILTER (WHERE bucket_ts >= :since30d), 0)   AS amount_30d,
                   coalesce(sum(tx_count)   FILTER (WHERE bucket_ts >= :since30d), 0)   AS count_30d,
                   coalesce(sum(sum_amount) FILTER (WHERE bucket_ts >= :sinceDay), 0)   AS amount_day,
                   coalesce(sum(tx_count)   FILTER (WHERE bucket_ts >= :sinceDay), 0)   AS count_day,
                   coalesce(sum(sum_amount) FILTER (WHERE bucket_ts >= :sinceWeek), 0)  AS amount_week,
                   coalesce(sum(tx_count)   FILTER (WHERE bucket_ts >= :sinceWeek), 0)  AS count_week,
                   coalesce(sum(sum_amount) FILTER (WHERE bucket_ts >= :sinceMonth), 0) AS amount_month,
                   coalesce(sum(tx_count)   FILTER (WHERE bucket_ts >= :sinceMonth), 0) AS count_month
            FROM risk_hourly_agg
            WHERE entity_id = :entityId
              AND channel_code = :channel
              AND direction_code = :direction
              AND bucket_ts >= least(:since30d, :sinceMonth)
            """;

    // an upsert through the view, which takes no ON CONFLICT
    private static final String ADD_TO_BUCKET = """
            WITH updated AS (
                UPDATE risk_hourly_agg
                SET sum_amount = sum_amount + :amount,
                    tx_count   = tx_count + 1
                WHERE (entity_id, channel_code, direction_code, bucket_ts)
                    = (:entityId, :channel, :direction, CAST(:bucket AS timestamp))
                RETURNING 1
            )
            INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
            SELECT :entityId, :channel, :direction, :bucket, :amount, 1
            WHERE NOT EXISTS (SELECT FROM updated)
            """;

    private final JdbcClient jdbc;
    private final WindowCalendar calendar;

    /** Calendar windows in UTC. */
    public SummedUsage(DataSource dataSource) {
        this(dataSource, WindowCalendar.UTC);
    }

    public SummedUsage(DataSource dataSource, WindowCalendar calendar) {
        this.jdbc = JdbcClient.create(dataSource);
        this.calendar = calendar;
    }

    /** Usage in each window that ends with the given hour bucket (the bucket included). */
    public Usage usageUpTo(BusinessKey key, Instant bucket) {
        return jdbc.sql(SELECT_USAGE)
                .param("entityId", key.entityId())
                .param("channel", key.channel())
                .param("direction", key.direction().name())
                .param("since24h", since(Window.LAST_24_HOURS, bucket))
                .param("since7d", since(Window.LAST_7_DAYS, bucket))
                .param("since30d", since(Window.LAST_30_DAYS, bucket))
                .param("sinceDay", since(Window.DAY, bucket))
                .param("sinceWeek", since(Window.WEEK, bucket))
                .param("sinceMonth", since(Window.MONTH, bucket))
                .query((rs, rowNum) -> {
                    Map<Window, Tally> byWindow = new EnumMap<>(Window.class);
                    for (Window window : Window.values()) {
                        if (window.countsUsage()) {
                            byWindow.put(
                                    window,
                                    new Tally(
                                            rs.getLong("amount_" + window.label()),
                                            rs.getLong("count_" + window.label())));
                        }
                    }
                    return new Usage(byWindow);
                })
                .single();
    }

    private LocalDateTime since(Window window, Instant bucket) {
        return utcTimestamp(calendar.startFor(window, bucket));
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
