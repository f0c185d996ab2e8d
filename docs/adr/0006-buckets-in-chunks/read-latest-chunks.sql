-- The newest chunk of each key.
\set s random(:first, :last)
SELECT key.entity_id, latest.*
FROM (SELECT entity_id, 'CARD'::text AS channel_code, 'OUT'::text AS direction_code FROM bench_keys WHERE n BETWEEN :s AND :s + CAST(:width AS integer)) AS key
LEFT JOIN LATERAL (SELECT ctid, first_ts, hours[cardinality(hours)] AS last_hour, running_amount, running_count, rewrites FROM c_chunk c
                   WHERE (c.entity_id, c.channel_code, c.direction_code) = (key.entity_id, key.channel_code, key.direction_code)
                   ORDER BY c.first_ts DESC LIMIT 1) AS latest ON true;
