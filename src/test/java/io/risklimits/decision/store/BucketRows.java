package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import org.springframework.jdbc.core.JdbcOperations;

/** Bucket rows written as a writer that leaves the running totals to the triggers: another instance, say. */
final class BucketRows {

    private BucketRows() {}

    static void add(JdbcOperations db, BusinessKey key, LocalDateTime bucket, long amount) {
        db.update("""
                INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
                VALUES (?, ?, ?, ?, ?, 1)
                ON CONFLICT (entity_id, channel_code, direction_code, bucket_ts)
                DO UPDATE SET sum_amount = risk_hourly_agg.sum_amount + EXCLUDED.sum_amount,
                              tx_count   = risk_hourly_agg.tx_count + EXCLUDED.tx_count
                """, key.entityId(), key.channel(), key.direction().name(), Timestamp.valueOf(bucket), amount);
    }
}
