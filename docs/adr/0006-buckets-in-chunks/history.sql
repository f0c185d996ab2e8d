-- Two copies of one history, in today's layout (risk_hourly_agg: a row per key and hour) and in chunks (a
-- row per key and run of up to 24 of its hours), for the comparison of docs/adr/0006-buckets-in-chunks.md.
--   200,000 keys seen seldom: 12 buckets 59 hours apart, the latest 1 to 59 hours before
--   2026-12-07 14:00, as the benchmark's wide key set;
--   2,000 keys seen every hour: 720 hourly buckets up to 13:00, as uniform 30 d's.
-- Today's table is risk_hourly_agg as V1 and V11 leave it, without its triggers (the decider's
-- transactions have them stand aside, but each row still evaluates their WHEN clause).

CREATE FUNCTION key_hash(e uuid, c text, d text) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT hashtextextended(e::text || ':' || c || ':' || d, 7236492873190001) $$;

-- the keys by number: 0 to 199,999 seen seldom, 200,000 to 201,999 every hour
CREATE TABLE bench_keys (n int PRIMARY KEY, entity_id uuid NOT NULL);
INSERT INTO bench_keys SELECT n, md5('key ' || n)::uuid FROM generate_series(0, 201999) n;

-- today's layout: risk_hourly_agg
CREATE TABLE t_hourly (
    entity_id uuid NOT NULL, channel_code text NOT NULL, direction_code text NOT NULL,
    bucket_ts timestamp NOT NULL,
    sum_amount bigint NOT NULL CHECK (sum_amount >= 0), tx_count integer NOT NULL CHECK (tx_count >= 0),
    key_hash bigint NOT NULL GENERATED ALWAYS AS (key_hash(entity_id, channel_code, direction_code)) STORED,
    running_amount numeric NOT NULL DEFAULT 0, running_count bigint NOT NULL DEFAULT 0,
    amount_before numeric GENERATED ALWAYS AS (running_amount - sum_amount) STORED,
    count_before bigint GENERATED ALWAYS AS (running_count - tx_count) STORED,
    rewrites bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (entity_id, channel_code, direction_code, bucket_ts) INCLUDE (amount_before, count_before)
) WITH (fillfactor = 50);
CREATE INDEX t_hourly_archive ON t_hourly (bucket_ts, key_hash);

-- sparse: 12 buckets 59 hours apart, latest 1..59 hours before 2026-12-07 14:00
INSERT INTO t_hourly (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count, running_amount, running_count, rewrites)
SELECT entity_id, 'CARD', 'OUT', ts, 1000, 1,
       1000 * row_number() OVER (PARTITION BY n ORDER BY ts), row_number() OVER (PARTITION BY n ORDER BY ts), 1
FROM (SELECT k.n, k.entity_id, timestamp '2026-12-07 14:00' - make_interval(hours => (k.n % 59 + 1) + 59 * i) AS ts
      FROM bench_keys k, generate_series(0, 11) i
      WHERE k.n < 200000) s;
-- dense: 720 hourly buckets up to the previous hour
INSERT INTO t_hourly (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count, running_amount, running_count, rewrites)
SELECT entity_id, 'CARD', 'OUT', ts, 1000, 1,
       1000 * row_number() OVER (PARTITION BY n ORDER BY ts), row_number() OVER (PARTITION BY n ORDER BY ts), 1
FROM (SELECT k.n, k.entity_id, timestamp '2026-12-07 14:00' - make_interval(hours => i) AS ts
      FROM bench_keys k, generate_series(1, 720) i
      WHERE k.n >= 200000) s;

-- chunked layout: a row per key and run of up to 24 buckets
CREATE TABLE c_chunk (
    entity_id uuid NOT NULL, channel_code text NOT NULL, direction_code text NOT NULL,
    first_ts timestamp NOT NULL,
    hours integer[] NOT NULL,     -- hours since the epoch
    sums bigint[] NOT NULL,
    counts integer[] NOT NULL,
    amount_before numeric NOT NULL, count_before bigint NOT NULL,   -- before the first
    running_amount numeric NOT NULL, running_count bigint NOT NULL, -- after the last
    rewrites bigint NOT NULL DEFAULT 0,
    key_hash bigint NOT NULL GENERATED ALWAYS AS (key_hash(entity_id, channel_code, direction_code)) STORED,
    PRIMARY KEY (entity_id, channel_code, direction_code, first_ts)
) WITH (fillfactor = 50);
CREATE INDEX c_chunk_archive ON c_chunk (first_ts, key_hash);

INSERT INTO c_chunk (entity_id, channel_code, direction_code, first_ts, hours, sums, counts, amount_before, count_before, running_amount, running_count, rewrites)
SELECT entity_id, channel_code, direction_code, min(bucket_ts),
       array_agg(CAST(date_part('epoch', bucket_ts) / 3600 AS integer) ORDER BY bucket_ts),
       array_agg(sum_amount ORDER BY bucket_ts), array_agg(tx_count ORDER BY bucket_ts),
       min(amount_before), min(count_before), max(running_amount), max(running_count), 1
FROM (SELECT *, (row_number() OVER (PARTITION BY entity_id ORDER BY bucket_ts) - 1) / 24 AS chunk FROM t_hourly) b
GROUP BY entity_id, channel_code, direction_code, chunk;
VACUUM ANALYZE;
CHECKPOINT;

-- the comparison is of work on pages in memory
CREATE EXTENSION IF NOT EXISTS pg_prewarm;
SELECT pg_prewarm(relation)
FROM unnest(ARRAY['t_hourly', 't_hourly_pkey', 't_hourly_archive', 'c_chunk', 'c_chunk_pkey', 'c_chunk_archive',
                  'bench_keys', 'bench_keys_pkey']) AS relation;
