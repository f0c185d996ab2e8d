-- Adding to the hour's bucket of each key (its latest stands for it): today's
-- ADD_TO_CURRENT_BUCKETS_WHERE_READ, by the ctid the read found (the first statement). Rolled back.
\set s random(:first, :last)
SELECT array_agg(b.ctid)::text AS ids FROM bench_keys k CROSS JOIN LATERAL (SELECT ctid FROM t_hourly b WHERE (b.entity_id, b.channel_code, b.direction_code) = (k.entity_id, 'CARD', 'OUT') ORDER BY b.bucket_ts DESC LIMIT 1) b WHERE k.n BETWEEN :s AND :s + CAST(:width AS integer) \gset
BEGIN;
UPDATE t_hourly b
SET sum_amount = b.sum_amount + 500, tx_count = b.tx_count + 1, running_amount = b.running_amount + 500, running_count = b.running_count + 1
FROM unnest(CAST(:ids AS tid[])) AS added (row_id)
WHERE b.ctid = added.row_id;
ROLLBACK;
