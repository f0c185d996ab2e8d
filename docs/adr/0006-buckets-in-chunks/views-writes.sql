-- Operators' writes, applied to both databases of views-match-tables.sh.
INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count) VALUES ('aaaaaaaa-0000-0000-0000-000000000001', 'CARD', 'OUT', '2026-12-02 03:00', 1000, 3);
INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count) VALUES ('aaaaaaaa-0000-0000-0000-000000000001', 'CARD', 'OUT', '2026-12-20 03:00', 9, 1);
UPDATE risk_hourly_agg SET sum_amount = sum_amount + 50, tx_count = tx_count + 1 WHERE entity_id = 'aaaaaaaa-0000-0000-0000-000000000001' AND bucket_ts = '2026-12-01 10:00';
DELETE FROM risk_hourly_agg WHERE entity_id = 'aaaaaaaa-0000-0000-0000-000000000001' AND bucket_ts = '2026-12-03 00:00';
UPDATE risk_scope_hourly_agg SET sum_amount = 0, tx_count = 0 WHERE bucket_ts = '2026-12-01 05:00';
INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count) VALUES ('bbbbbbbb-0000-0000-0000-000000000002', 'CARD', 'IN', '2026-11-01 00:00', 4, 4);
