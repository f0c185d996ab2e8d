package io.risklimits.decision.store;

import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcOperations;

/** The check that a scope key's running totals are the prefix sums of its buckets' amounts and counts. */
final class PrefixSums {

    private PrefixSums() {}

    /** The hours of the entity's CARD OUT key whose running totals are not the prefix sums. */
    static List<String> keyMismatches(JdbcOperations db, UUID entity) {
        return mismatches(
                db, "risk_hourly_agg WHERE entity_id = ? AND channel_code = 'CARD' AND direction_code = 'OUT'", entity);
    }

    /**
     * The hours of one scope key's buckets whose running totals are not the prefix sums of its amounts and
     * counts.
     *
     * @param bucketsOfTheKey the bucket table and the condition that picks the key's rows
     */
    static List<String> mismatches(JdbcOperations db, String bucketsOfTheKey, UUID owner) {
        return db.queryForList("""
                SELECT bucket_ts::text
                FROM (SELECT bucket_ts, running_amount, running_count,
                             sum(sum_amount) OVER (ORDER BY bucket_ts) AS expected_amount,
                             sum(tx_count)   OVER (ORDER BY bucket_ts) AS expected_count
                      FROM %s) AS buckets
                WHERE running_amount <> expected_amount OR running_count <> expected_count
                """.formatted(bucketsOfTheKey), String.class, owner);
    }
}
