-- The usage read in chunks of keys seen seldom: every chunk of the key (such a key has one); the service
-- picks each window's start from the arrays, as it did from a key's recent buckets when this was measured.
\set s random(:first, :last)
SELECT key.entity_id, chunk.*
FROM (SELECT entity_id, 'CARD'::text AS channel_code, 'OUT'::text AS direction_code FROM bench_keys WHERE n BETWEEN :s AND :s + CAST(:width AS integer)) AS key
LEFT JOIN LATERAL (SELECT ctid, first_ts, hours, sums, counts, amount_before, count_before, running_amount, running_count, rewrites FROM c_chunk c
                   WHERE (c.entity_id, c.channel_code, c.direction_code) = (key.entity_id, key.channel_code, key.direction_code)
                   ORDER BY c.first_ts) AS chunk ON true;
