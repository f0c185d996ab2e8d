-- Adding to the hour in chunks: the last entry of each key's newest chunk grows. Rolled back.
\set s random(:first, :last)
SELECT array_agg(c.ctid)::text AS ids FROM bench_keys k CROSS JOIN LATERAL (SELECT ctid FROM c_chunk c WHERE (c.entity_id, c.channel_code, c.direction_code) = (k.entity_id, 'CARD', 'OUT') ORDER BY c.first_ts DESC LIMIT 1) c WHERE k.n BETWEEN :s AND :s + CAST(:width AS integer) \gset
BEGIN;
UPDATE c_chunk c
SET sums[cardinality(c.sums)] = c.sums[cardinality(c.sums)] + 500, counts[cardinality(c.counts)] = c.counts[cardinality(c.counts)] + 1,
    running_amount = c.running_amount + 500, running_count = c.running_count + 1
FROM unnest(CAST(:ids AS tid[])) AS added (row_id)
WHERE c.ctid = added.row_id;
ROLLBACK;
