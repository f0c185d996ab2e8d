package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import org.springframework.jdbc.core.JdbcOperations;

/** Bucket rows written as a writer that leaves the running totals to the triggers: another instance, say. */
final class BucketRows {

    private BucketRows() {}

    static void add(JdbcOperations db, BusinessKey key, LocalDateTime bucket, long amount) {
        // an upsert through the view, which takes no ON CONFLICT
        db.update("""
                WITH added (entity_id, channel_code, direction_code, bucket_ts, sum_amount) AS (
                    VALUES (CAST(? AS uuid), CAST(? AS text), CAST(? AS text), CAST(? AS timestamp), CAST(? AS bigint))
                ), updated AS (
                    UPDATE risk_hourly_agg bucket
                    SET sum_amount = bucket.sum_amount + added.sum_amount,
                        tx_count   = bucket.tx_count + 1
                    FROM added
                    WHERE (bucket.entity_id, bucket.channel_code, bucket.direction_code, bucket.bucket_ts)
                        = (added.entity_id, added.channel_code, added.direction_code, added.bucket_ts)
                    RETURNING 1
                )
                INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
                SELECT entity_id, channel_code, direction_code, bucket_ts, sum_amount, 1
                FROM added
                WHERE NOT EXISTS (SELECT FROM updated)
                """, key.entityId(), key.channel(), key.direction().name(), Timestamp.valueOf(bucket), amount);
    }
}
