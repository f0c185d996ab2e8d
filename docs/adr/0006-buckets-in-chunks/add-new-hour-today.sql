-- A first sight of the hour at each key: today's ADD_TO_LATEST_BUCKETS inserts a bucket per key. Rolled
-- back, so that every transaction finds the same history.
\set s random(:first, :last)
BEGIN;
INSERT INTO t_hourly (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count, running_amount, running_count, rewrites)
SELECT added.entity_id, added.channel_code, added.direction_code, CAST('2026-12-07 14:00' AS timestamp), added.sum_amount, added.tx_count, added.running_amount, added.running_count, added.rewrites
FROM (SELECT entity_id, 'CARD'::text AS channel_code, 'OUT'::text AS direction_code, 500::bigint AS sum_amount, 1 AS tx_count, 12500::numeric AS running_amount, 13::bigint AS running_count, 1::bigint AS rewrites
      FROM bench_keys WHERE n BETWEEN :s AND :s + CAST(:width AS integer)) AS added;
ROLLBACK;
