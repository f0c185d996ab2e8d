-- The usage read of keys whose window starts are not remembered: SELECT_USAGE (UsageReadStatements) as it was
-- when this ADR was measured, returning the scanned buckets as arrays (the decider's statement now picks each
-- window's start from them itself),
-- with the window starts of 2026-12-07 14:00 in UTC. For a key with 32 or more buckets in its longest window
-- it probes the primary key once per window start.
\set s random(:first, :last)
SELECT key.entity_id, latest.*, recent.*, starts.*
FROM (SELECT entity_id, 'CARD'::text AS channel_code, 'OUT'::text AS direction_code FROM bench_keys WHERE n BETWEEN :s AND :s + CAST(:width AS integer)) AS key
LEFT JOIN LATERAL (SELECT ctid, bucket_ts, running_amount, running_count, rewrites FROM t_hourly bucket
                   WHERE (bucket.entity_id, bucket.channel_code, bucket.direction_code) = (key.entity_id, key.channel_code, key.direction_code)
                   ORDER BY bucket.bucket_ts DESC LIMIT 1) AS latest ON true
LEFT JOIN LATERAL (
    SELECT count(*) AS buckets,
           array_agg(CAST(date_part('epoch', e.bucket_ts) AS bigint) ORDER BY e.bucket_ts) AS bucket_epochs,
           array_agg(e.amount_before ORDER BY e.bucket_ts) AS amounts_before,
           array_agg(e.count_before ORDER BY e.bucket_ts) AS counts_before
    FROM (SELECT bucket.bucket_ts, bucket.amount_before, bucket.count_before FROM t_hourly bucket
          WHERE (bucket.entity_id, bucket.channel_code, bucket.direction_code) = (key.entity_id, key.channel_code, key.direction_code)
            AND bucket.bucket_ts >= CAST('2026-11-07 15:00' AS timestamp)
          ORDER BY bucket.bucket_ts LIMIT 32) AS e) AS recent ON true
LEFT JOIN LATERAL (
    SELECT array_agg(coalesce(fb.amount_before, latest.running_amount, 0) ORDER BY ws.position) AS amounts_before,
           array_agg(coalesce(fb.count_before, latest.running_count, 0) ORDER BY ws.position) AS counts_before
    FROM unnest(CAST('{2026-12-06 15:00,2026-11-30 15:00,2026-11-07 15:00,2026-12-07 00:00,2026-12-07 00:00,2026-12-01 00:00}' AS timestamp[])) WITH ORDINALITY AS ws (since, position)
    LEFT JOIN LATERAL (SELECT amount_before, count_before FROM t_hourly bucket
                       WHERE (bucket.entity_id, bucket.channel_code, bucket.direction_code) = (key.entity_id, key.channel_code, key.direction_code)
                         AND bucket.bucket_ts >= ws.since ORDER BY bucket.bucket_ts LIMIT 1) AS fb ON true
    WHERE recent.buckets = 32) AS starts ON true;
