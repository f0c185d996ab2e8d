-- The usage read in chunks of keys with a long history: the newest chunk, and per window start the chunk
-- that holds it, with the totals before the window's first hour.
\set s random(:first, :last)
SELECT key.entity_id, latest.*, starts.*
FROM (SELECT entity_id, 'CARD'::text AS channel_code, 'OUT'::text AS direction_code FROM bench_keys WHERE n BETWEEN :s AND :s + CAST(:width AS integer)) AS key
LEFT JOIN LATERAL (SELECT ctid, first_ts, hours[cardinality(hours)] AS last_hour, running_amount, running_count, rewrites FROM c_chunk c
                   WHERE (c.entity_id, c.channel_code, c.direction_code) = (key.entity_id, key.channel_code, key.direction_code)
                   ORDER BY c.first_ts DESC LIMIT 1) AS latest ON true
LEFT JOIN LATERAL (
    SELECT array_agg(coalesce(w.amount_before, after.amount_before, latest.running_amount, 0) ORDER BY ws.position) AS amounts_before,
           array_agg(coalesce(w.count_before, after.count_before, latest.running_count, 0) ORDER BY ws.position) AS counts_before
    FROM unnest(CAST('{2026-12-06 15:00,2026-11-30 15:00,2026-11-07 15:00,2026-12-07 00:00,2026-12-07 00:00,2026-12-01 00:00}' AS timestamp[])) WITH ORDINALITY AS ws (since, position)
    LEFT JOIN LATERAL (SELECT c.amount_before + coalesce(e.amount, 0) AS amount_before, c.count_before + coalesce(e.count, 0) AS count_before
                       FROM c_chunk c
                       CROSS JOIN LATERAL (SELECT sum(entry.sum_amount) AS amount, sum(entry.tx_count) AS count
                                           FROM unnest(c.hours, c.sums, c.counts) AS entry (hour, sum_amount, tx_count)
                                           WHERE entry.hour < CAST(date_part('epoch', ws.since) / 3600 AS integer)) AS e
                       WHERE (c.entity_id, c.channel_code, c.direction_code) = (key.entity_id, key.channel_code, key.direction_code)
                         AND c.first_ts <= ws.since ORDER BY c.first_ts DESC LIMIT 1) AS w ON true
    -- a window that starts before the key's first chunk starts where that chunk does
    LEFT JOIN LATERAL (SELECT c.amount_before, c.count_before FROM c_chunk c
                       WHERE w.amount_before IS NULL
                         AND (c.entity_id, c.channel_code, c.direction_code) = (key.entity_id, key.channel_code, key.direction_code)
                         AND c.first_ts > ws.since ORDER BY c.first_ts LIMIT 1) AS after ON true) AS starts ON true;
