-- The latest bucket of each key, as a scope key whose usage no limit checks is read: today's SELECT_LATEST.
\set s random(:first, :last)
SELECT key.entity_id, latest.*
FROM (SELECT entity_id, 'CARD'::text AS channel_code, 'OUT'::text AS direction_code FROM bench_keys WHERE n BETWEEN :s AND :s + CAST(:width AS integer)) AS key
LEFT JOIN LATERAL (SELECT ctid, bucket_ts, running_amount, running_count, rewrites FROM t_hourly bucket
                   WHERE (bucket.entity_id, bucket.channel_code, bucket.direction_code) = (key.entity_id, key.channel_code, key.direction_code)
                   ORDER BY bucket.bucket_ts DESC LIMIT 1) AS latest ON true;
