-- 500 first sights of the hour, committed: today's ADD_TO_LATEST_BUCKETS inserts a new bucket for each of
-- 500 keys seen seldom, each key once a run (the keys taken in order, 500 a transaction, from the
-- sequence compare.sh resets). The keys' buckets are spread over the whole primary key, so the run
-- changes many of its leaves for the first time since the checkpoint before it, as a card portfolio's
-- first sights do, and each such change logs the leaf whole.
SELECT nextval('first_sight_block') * 500 AS s \gset
BEGIN;
INSERT INTO t_hourly (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count, running_amount, running_count, rewrites)
SELECT entity_id, 'CARD', 'OUT', CAST('2026-12-07 14:00' AS timestamp), 500, 1, 12500, 13, 1
FROM bench_keys WHERE n BETWEEN :s AND :s + 499;
COMMIT;
