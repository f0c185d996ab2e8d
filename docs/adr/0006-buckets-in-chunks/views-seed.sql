-- The buckets both databases of views-match-tables.sh start from: a key with a bucket every other hour and one
-- deleted, a key seen every 59 hours, an entity every hour.
INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
SELECT 'aaaaaaaa-0000-0000-0000-000000000001', 'CARD', 'OUT', timestamp '2026-12-01 00:00' + make_interval(hours => 2 * i), 100 + i, 1
FROM generate_series(0, 59) i;
INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
SELECT 'bbbbbbbb-0000-0000-0000-000000000002', 'CARD', 'IN', timestamp '2026-12-01 00:00' + make_interval(hours => 59 * i), 7, 2
FROM generate_series(0, 11) i;
DELETE FROM risk_hourly_agg WHERE bucket_ts = '2026-12-01 20:00' AND entity_id = 'aaaaaaaa-0000-0000-0000-000000000001';
INSERT INTO risk_scope_hourly_agg (scope, owner_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
SELECT 'entity', 'aaaaaaaa-0000-0000-0000-000000000001', '*', 'OUT', timestamp '2026-12-01 00:00' + make_interval(hours => i), 5, 1
FROM generate_series(0, 30) i;
