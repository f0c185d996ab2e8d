package io.risklimits.decision;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.TestInfrastructure;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The running totals that the triggers of V2 derive must equal the prefix sums of the buckets,
 * whatever order the buckets are written in and however often a bucket is updated.
 */
class RunningTotalsIT {

    private static final LocalDateTime START = LocalDateTime.of(2026, 1, 1, 0, 0);

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final Random random = new Random(7);

    @Test
    void totalsAreThePrefixSumsWhateverTheWriteOrder() {
        UUID entity = UUID.randomUUID();
        List<Integer> hours = new ArrayList<>();
        for (int hour = 0; hour < 200; hour++) {
            hours.add(hour);
        }
        Collections.shuffle(hours, random);
        for (int hour : hours) {
            addToBucket(entity, hour, 1 + random.nextInt(1000));
        }
        for (int i = 0; i < 300; i++) {
            addToBucket(entity, random.nextInt(200), 1 + random.nextInt(1000));
        }

        List<String> mismatches = db.queryForList("""
                SELECT bucket_ts::text
                FROM (SELECT bucket_ts, running_amount, running_count,
                             sum(sum_amount) OVER (ORDER BY bucket_ts) AS expected_amount,
                             sum(tx_count)   OVER (ORDER BY bucket_ts) AS expected_count
                      FROM risk_hourly_agg
                      WHERE entity_id = ? AND channel_code = 'CARD' AND direction_code = 'OUT') AS buckets
                WHERE running_amount <> expected_amount OR running_count <> expected_count
                """, String.class, entity);
        long buckets =
                db.queryForObject("SELECT count(*) FROM risk_hourly_agg WHERE entity_id = ?", Long.class, entity);
        assertThat(buckets).isEqualTo(200);
        assertThat(mismatches).isEmpty();
    }

    @Test
    void aKeyDoesNotSeeTheTotalsOfAnother() {
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        addToBucket(first, 0, 500);
        addToBucket(second, 1, 7);
        Long running = db.queryForObject(
                "SELECT running_amount::bigint FROM risk_hourly_agg WHERE entity_id = ?", Long.class, second);
        assertThat(running).isEqualTo(7);
    }

    private void addToBucket(UUID entity, int hour, long amount) {
        db.update("""
                INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
                VALUES (?, 'CARD', 'OUT', ?, ?, 1)
                ON CONFLICT (entity_id, channel_code, direction_code, bucket_ts)
                DO UPDATE SET sum_amount = risk_hourly_agg.sum_amount + EXCLUDED.sum_amount,
                              tx_count   = risk_hourly_agg.tx_count + EXCLUDED.tx_count
                """, entity, Timestamp.valueOf(START.plusHours(hour)), amount);
    }
}
