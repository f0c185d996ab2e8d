package io.risklimits.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What must hold of a channel of a test's own once its stream is decided, whatever ran beside the
 * decider (a restart, the archiver): every copy of a decision on the topic says the same, no key is
 * approved beyond its 24-hour count, the hour buckets equal the approved audit rows, and the limit bit.
 */
public record DecidedChannel(JdbcTemplate db, String channel) {

    private static final String KEYS_OVER_THEIR_COUNT = """
            SELECT entity_id::text FROM risk_request_log
            WHERE channel_code = ? AND decision = 'APPROVED'
            GROUP BY entity_id HAVING count(*) > ?
            """;

    private static final String BUCKETS_THAT_DIFFER_FROM_THE_APPROVALS = """
            SELECT coalesce(agg.entity_id, audit.entity_id)::text
            FROM (SELECT entity_id, bucket_ts, sum_amount, tx_count FROM risk_hourly_agg WHERE channel_code = ?) AS agg
            FULL JOIN (SELECT entity_id, bucket_ts, sum(amount) AS sum_amount, count(*) AS tx_count
                       FROM risk_request_log WHERE channel_code = ? AND decision = 'APPROVED'
                       GROUP BY entity_id, bucket_ts) AS audit
                   ON (agg.entity_id, agg.bucket_ts) = (audit.entity_id, audit.bucket_ts)
            WHERE agg.sum_amount IS DISTINCT FROM audit.sum_amount OR agg.tx_count IS DISTINCT FROM audit.tx_count
            """;

    /**
     * Asserts all four, given the decisions read from the topic and the channel's 24-hour count limit
     * (its only limit that can bite).
     */
    public void assertDecidedConsistently(List<DecisionMessage> messages, int maxCount24h) {
        assertEveryCopyAgrees(messages);
        assertThat(db.queryForList(KEYS_OVER_THEIR_COUNT, String.class, channel, maxCount24h))
                .as("keys over their 24h count")
                .isEmpty();
        assertThat(db.queryForList(BUCKETS_THAT_DIFFER_FROM_THE_APPROVALS, String.class, channel, channel))
                .as("buckets that differ from the approved audit rows")
                .isEmpty();
        assertThat(db.queryForObject(
                        "SELECT count(*) FROM risk_request_log WHERE channel_code = ? AND decision = 'REJECTED'",
                        Long.class,
                        channel))
                .as("rejections (the limit must bite)")
                .isPositive();
    }

    /** Every copy of a decision (a redelivery answered again) says what the first said, but for replayed. */
    private static void assertEveryCopyAgrees(List<DecisionMessage> messages) {
        messages.stream()
                .collect(Collectors.groupingBy(DecisionMessage::dedupeId))
                .values()
                .forEach(copies -> assertThat(copies)
                        .extracting(DecisionMessage::withoutReplayedFlag)
                        .containsOnly(copies.get(0).withoutReplayedFlag()));
    }
}
