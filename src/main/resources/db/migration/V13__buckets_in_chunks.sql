-- A scope key's hourly buckets kept in chunks of up to 24 (docs/adr/0006-buckets-in-chunks.md): a row per
-- scope key and run of its hours, with the hours, amounts and counts in arrays and the running totals before
-- the first and after the last. A key seen seldom has its month in one row: its first sight of an hour
-- appends to that row in place, where a row per hour inserted a row and two index entries.
--
-- risk_hourly_agg and risk_scope_hourly_agg stay, as views of a row per scope key and hour with the columns
-- they had, for operators' queries and writes: an INSERT, UPDATE or DELETE through them rewrites the
-- chunks from the changed hour on, with the running totals and rewrites their triggers kept (V1, V4, V12).
-- The decider and the archiver write the chunk tables themselves.
--
-- Invariants of a chunk row, which every writer keeps:
--   hours: 1 to 24 hours since 1970-01-01 00:00 (the buckets' time is UTC, without a zone), ascending;
--          sums and counts the amount and count of each, zero or more; first_ts the first hour;
--   running_amount = amount_before + the sum of sums, running_count = count_before + the sum of counts;
--   a key's chunks do not overlap: each one's first hour is after the last hour of the one before.
-- The totals before a chunk are not always the totals after the chunk before it: a bucket deleted (past
-- retention, by the archiver) leaves the totals of the later ones as they were.

-- A bucket's hour as the number of hours since 1970-01-01 00:00, and back; a time within an hour is no
-- bucket's.
CREATE FUNCTION risk_hour_number(bucket_ts timestamp) RETURNS integer
    LANGUAGE plpgsql
    IMMUTABLE
    PARALLEL SAFE
AS $$
BEGIN
    IF date_trunc('hour', bucket_ts) <> bucket_ts THEN
        RAISE EXCEPTION 'a bucket is an hour: % is not the start of one', bucket_ts
            USING ERRCODE = 'invalid_datetime_format';
    END IF;
    RETURN CAST(extract(epoch FROM bucket_ts) / 3600 AS integer);
END
$$;

CREATE FUNCTION risk_hour_ts(hour integer) RETURNS timestamp
    LANGUAGE sql
    IMMUTABLE
    PARALLEL SAFE
AS $$
    SELECT timestamp '1970-01-01 00:00' + make_interval(hours => hour)
$$;

-- A chunk's buckets, one row each in hour order, with the amount and count up to and including each.
CREATE FUNCTION risk_chunk_entries(hours integer[], sums bigint[], counts integer[])
    RETURNS TABLE (hour integer, sum_amount bigint, tx_count integer, amount_through numeric, count_through bigint)
    LANGUAGE sql
    IMMUTABLE
    PARALLEL SAFE
AS $$
    SELECT entry.hour, entry.sum_amount, entry.tx_count,
           sum(entry.sum_amount) OVER (ORDER BY entry.position),
           sum(entry.tx_count) OVER (ORDER BY entry.position)
    FROM unnest(hours, sums, counts) WITH ORDINALITY AS entry (hour, sum_amount, tx_count, position)
$$;

-- One bucket with its running totals, as a row per hour had it: what the chunks are made of and taken
-- apart into when a writer other than the decider changes them.
CREATE TYPE risk_bucket AS (
    hour           integer,
    sum_amount     bigint,
    tx_count       integer,
    running_amount numeric,
    running_count  bigint,
    rewrites       bigint
);

-- A key's buckets (in ascending hour order, no hour twice) as chunks: up to 24 buckets each, a new chunk
-- wherever a bucket's totals before it are not the totals after the bucket before it. A chunk's rewrites
-- are the most of its buckets'.
CREATE FUNCTION risk_chunked(buckets risk_bucket[])
    RETURNS TABLE (first_ts       timestamp,
                   hours          integer[],
                   sums           bigint[],
                   counts         integer[],
                   amount_before  numeric,
                   count_before   bigint,
                   running_amount numeric,
                   running_count  bigint,
                   rewrites       bigint)
    LANGUAGE plpgsql
    IMMUTABLE
AS $$
DECLARE
    bucket risk_bucket;
    previous_hour integer;
BEGIN
    FOREACH bucket IN ARRAY buckets LOOP
        IF bucket.hour <= previous_hour THEN
            RAISE EXCEPTION 'buckets out of hour order: % after %', bucket.hour, previous_hour;
        END IF;
        previous_hour := bucket.hour;
        IF hours IS NOT NULL
           AND (cardinality(hours) = 24
                OR bucket.running_amount - bucket.sum_amount <> running_amount
                OR bucket.running_count - bucket.tx_count <> running_count) THEN
            RETURN NEXT;
            hours := NULL;
        END IF;
        IF hours IS NULL THEN
            first_ts := risk_hour_ts(bucket.hour);
            hours := '{}';
            sums := '{}';
            counts := '{}';
            amount_before := bucket.running_amount - bucket.sum_amount;
            count_before := bucket.running_count - bucket.tx_count;
            rewrites := bucket.rewrites;
        END IF;
        hours := hours || bucket.hour;
        sums := sums || bucket.sum_amount;
        counts := counts || bucket.tx_count;
        running_amount := bucket.running_amount;
        running_count := bucket.running_count;
        rewrites := greatest(rewrites, bucket.rewrites);
    END LOOP;
    IF hours IS NOT NULL THEN
        RETURN NEXT;
    END IF;
END
$$;

-- A key's buckets after one write by a writer other than the decider (an operator, a backfill), given its
-- buckets before (ascending) and the written bucket: as the triggers of V1, V4 and V12 had them.
--   INSERT: the new bucket continues from the one before it and counts a rewrite; every later one gains
--           its amount and count and counts a rewrite. A bucket of that hour already there is an error.
--   UPDATE: the bucket moves by the change of its amount and count, and so does every later one, each
--           counting a rewrite; an update that leaves amount and count as they were writes what it says.
--   DELETE: the bucket is gone; the later ones keep their totals.
-- With risk.running_totals_written_by = 'statement' (a writer that keeps the totals itself) an insert or
-- update writes the totals and rewrites it gives, and changes no other bucket.
CREATE FUNCTION risk_buckets_written(
    buckets risk_bucket[], operation text, written risk_bucket, by_statement boolean)
    RETURNS risk_bucket[]
    LANGUAGE plpgsql
    IMMUTABLE
AS $$
DECLARE
    bucket risk_bucket;
    result risk_bucket[] := '{}';
    earlier risk_bucket;
    amount_delta numeric := 0;
    count_delta bigint := 0;
    carried boolean := false;
    inserted boolean := false;
BEGIN
    FOREACH bucket IN ARRAY buckets LOOP
        IF bucket.hour < written.hour THEN
            earlier := bucket;
            result := result || bucket;
        ELSIF bucket.hour = written.hour THEN
            IF operation = 'INSERT' THEN
                RAISE EXCEPTION 'a bucket of hour % is there already', risk_hour_ts(written.hour)
                    USING ERRCODE = 'unique_violation';
            ELSIF operation = 'UPDATE' THEN
                IF NOT by_statement
                   AND (written.sum_amount, written.tx_count) IS DISTINCT FROM (bucket.sum_amount, bucket.tx_count) THEN
                    amount_delta := written.sum_amount - bucket.sum_amount;
                    count_delta := written.tx_count - bucket.tx_count;
                    carried := true;
                    written.running_amount := bucket.running_amount + amount_delta;
                    written.running_count := bucket.running_count + count_delta;
                    written.rewrites := bucket.rewrites + 1;
                END IF;
                result := result || written;
            END IF;
        ELSE
            IF operation = 'INSERT' AND NOT inserted THEN
                result := result || risk_buckets_inserted(written, earlier, by_statement);
                inserted := true;
                amount_delta := written.sum_amount;
                count_delta := written.tx_count;
                carried := NOT by_statement;
            END IF;
            IF carried THEN
                bucket.running_amount := bucket.running_amount + amount_delta;
                bucket.running_count := bucket.running_count + count_delta;
                bucket.rewrites := bucket.rewrites + 1;
            END IF;
            result := result || bucket;
        END IF;
    END LOOP;
    IF operation = 'INSERT' AND NOT inserted THEN
        result := result || risk_buckets_inserted(written, earlier, by_statement);
    END IF;
    RETURN result;
END
$$;

-- The bucket an insert adds: continuing from the one before it (earlier, or none), or as given.
CREATE FUNCTION risk_buckets_inserted(written risk_bucket, earlier risk_bucket, by_statement boolean)
    RETURNS risk_bucket
    LANGUAGE sql
    IMMUTABLE
AS $$
    SELECT CASE
               WHEN by_statement THEN written
               ELSE ROW(written.hour, written.sum_amount, written.tx_count,
                        coalesce(earlier.running_amount, 0) + written.sum_amount,
                        coalesce(earlier.running_count, 0) + written.tx_count,
                        coalesce(earlier.rewrites, 0) + 1)::risk_bucket
           END
$$;

-- A chunk's amounts (or counts) less what releases give back to its hours (released_hours, released,
-- an hour any number of times): the decider's release into earlier hours.
CREATE FUNCTION risk_chunk_less(hours integer[], amounts bigint[], released_hours integer[], released bigint[])
    RETURNS bigint[]
    LANGUAGE sql
    IMMUTABLE
    PARALLEL SAFE
AS $$
    SELECT array_agg(CAST(entry.amount - coalesce(given.amount, 0) AS bigint) ORDER BY entry.position)
    FROM unnest(hours, amounts) WITH ORDINALITY AS entry (hour, amount, position)
    LEFT JOIN (SELECT release.hour, sum(release.amount) AS amount
               FROM unnest(released_hours, released) AS release (hour, amount)
               GROUP BY release.hour) AS given
           ON given.hour = entry.hour
$$;

-- A chunk's buckets from an hour on, and the amount and count of those before it: the archiver's trim
-- of a chunk partly past retention, whose totals before its first bucket grow by what it loses.
CREATE FUNCTION risk_chunk_from(hours integer[], sums bigint[], counts integer[], from_hour integer)
    RETURNS TABLE (hours integer[], sums bigint[], counts integer[], amount_gone numeric, count_gone bigint)
    LANGUAGE sql
    IMMUTABLE
    PARALLEL SAFE
AS $$
    SELECT array_agg(bucket.hour ORDER BY bucket.position) FILTER (WHERE bucket.hour >= from_hour),
           array_agg(bucket.sum_amount ORDER BY bucket.position) FILTER (WHERE bucket.hour >= from_hour),
           array_agg(bucket.tx_count ORDER BY bucket.position) FILTER (WHERE bucket.hour >= from_hour),
           coalesce(sum(bucket.sum_amount) FILTER (WHERE bucket.hour < from_hour), 0),
           coalesce(sum(bucket.tx_count) FILTER (WHERE bucket.hour < from_hour), 0)
    FROM unnest(hours, sums, counts) WITH ORDINALITY AS bucket (hour, sum_amount, tx_count, position)
$$;

CREATE TABLE risk_hourly_chunk (
    entity_id      uuid      NOT NULL,
    channel_code   text      NOT NULL,
    direction_code text      NOT NULL,
    first_ts       timestamp NOT NULL,
    hours          integer[] NOT NULL,
    sums           bigint[]  NOT NULL,
    counts         integer[] NOT NULL,
    amount_before  numeric   NOT NULL,  -- numeric: years of 1e15 amounts overflow bigint
    count_before   bigint    NOT NULL,
    running_amount numeric   NOT NULL,
    running_count  bigint    NOT NULL,
    -- how often the key's history up to this chunk was written after the fact, as V1 counts it per bucket:
    -- a new chunk starts from its predecessor's count, and a write into an earlier hour adds 1 to every
    -- later chunk. The decider's remembered window starts of a key stay valid while its newest chunk's
    -- count is unchanged.
    rewrites       bigint    NOT NULL,
    key_hash       bigint    NOT NULL
        GENERATED ALWAYS AS (risk_business_key_hash(entity_id, channel_code, direction_code)) STORED,
    PRIMARY KEY (entity_id, channel_code, direction_code, first_ts),
    CHECK (cardinality(hours) BETWEEN 1 AND 24
           AND cardinality(sums) = cardinality(hours)
           AND cardinality(counts) = cardinality(hours)),
    CHECK (0 <= ALL (sums) AND 0 <= ALL (counts))
) WITH (fillfactor = 50);

CREATE INDEX risk_hourly_chunk_archive_idx ON risk_hourly_chunk (first_ts, key_hash);

CREATE TABLE risk_scope_hourly_chunk (
    scope          text      NOT NULL CHECK (scope IN ('entity', 'account_channel', 'account')),
    owner_id       uuid      NOT NULL,
    channel_code   text      NOT NULL,
    direction_code text      NOT NULL,
    first_ts       timestamp NOT NULL,
    hours          integer[] NOT NULL,
    sums           bigint[]  NOT NULL,
    counts         integer[] NOT NULL,
    amount_before  numeric   NOT NULL,
    count_before   bigint    NOT NULL,
    running_amount numeric   NOT NULL,
    running_count  bigint    NOT NULL,
    rewrites       bigint    NOT NULL,
    key_hash       bigint    NOT NULL
        GENERATED ALWAYS AS (risk_scope_key_hash(scope, owner_id, channel_code, direction_code)) STORED,
    PRIMARY KEY (scope, owner_id, channel_code, direction_code, first_ts),
    CHECK ((scope = 'account_channel') = (channel_code <> '*')),
    CHECK (cardinality(hours) BETWEEN 1 AND 24
           AND cardinality(sums) = cardinality(hours)
           AND cardinality(counts) = cardinality(hours)),
    CHECK (0 <= ALL (sums) AND 0 <= ALL (counts))
) WITH (fillfactor = 50);

CREATE INDEX risk_scope_hourly_chunk_archive_idx ON risk_scope_hourly_chunk (first_ts, key_hash);

-- Every key's buckets into chunks, in the buckets' own running totals and rewrites.
INSERT INTO risk_hourly_chunk (entity_id, channel_code, direction_code, first_ts, hours, sums, counts,
                               amount_before, count_before, running_amount, running_count, rewrites)
SELECT key.entity_id, key.channel_code, key.direction_code, chunk.*
FROM (SELECT DISTINCT entity_id, channel_code, direction_code FROM risk_hourly_agg) AS key
CROSS JOIN LATERAL risk_chunked(ARRAY(
    SELECT ROW(risk_hour_number(bucket.bucket_ts), bucket.sum_amount, bucket.tx_count, bucket.running_amount,
               bucket.running_count, bucket.rewrites)::risk_bucket
    FROM risk_hourly_agg bucket
    WHERE (bucket.entity_id, bucket.channel_code, bucket.direction_code)
        = (key.entity_id, key.channel_code, key.direction_code)
    ORDER BY bucket.bucket_ts)) AS chunk;

INSERT INTO risk_scope_hourly_chunk (scope, owner_id, channel_code, direction_code, first_ts, hours, sums, counts,
                                     amount_before, count_before, running_amount, running_count, rewrites)
SELECT key.scope, key.owner_id, key.channel_code, key.direction_code, chunk.*
FROM (SELECT DISTINCT scope, owner_id, channel_code, direction_code FROM risk_scope_hourly_agg) AS key
CROSS JOIN LATERAL risk_chunked(ARRAY(
    SELECT ROW(risk_hour_number(bucket.bucket_ts), bucket.sum_amount, bucket.tx_count, bucket.running_amount,
               bucket.running_count, bucket.rewrites)::risk_bucket
    FROM risk_scope_hourly_agg bucket
    WHERE (bucket.scope, bucket.owner_id, bucket.channel_code, bucket.direction_code)
        = (key.scope, key.owner_id, key.channel_code, key.direction_code)
    ORDER BY bucket.bucket_ts)) AS chunk;

DROP TABLE risk_hourly_agg;
DROP TABLE risk_scope_hourly_agg;
DROP FUNCTION risk_hourly_agg_set_running_totals();
DROP FUNCTION risk_hourly_agg_carry_forward();
DROP FUNCTION risk_scope_hourly_agg_set_running_totals();
DROP FUNCTION risk_scope_hourly_agg_carry_forward();

-- The buckets as a row per scope key and hour, with the columns of the tables they were.
CREATE VIEW risk_hourly_agg AS
SELECT chunk.entity_id, chunk.channel_code, chunk.direction_code,
       risk_hour_ts(bucket.hour) AS bucket_ts,
       bucket.sum_amount, bucket.tx_count, chunk.key_hash,
       chunk.amount_before + bucket.amount_through AS running_amount,
       chunk.count_before + bucket.count_through AS running_count,
       chunk.amount_before + bucket.amount_through - bucket.sum_amount AS amount_before,
       chunk.count_before + bucket.count_through - bucket.tx_count AS count_before,
       chunk.rewrites
FROM risk_hourly_chunk chunk
CROSS JOIN LATERAL risk_chunk_entries(chunk.hours, chunk.sums, chunk.counts) AS bucket;

CREATE VIEW risk_scope_hourly_agg AS
SELECT chunk.scope, chunk.owner_id, chunk.channel_code, chunk.direction_code,
       risk_hour_ts(bucket.hour) AS bucket_ts,
       bucket.sum_amount, bucket.tx_count, chunk.key_hash,
       chunk.amount_before + bucket.amount_through AS running_amount,
       chunk.count_before + bucket.count_through AS running_count,
       chunk.amount_before + bucket.amount_through - bucket.sum_amount AS amount_before,
       chunk.count_before + bucket.count_through - bucket.tx_count AS count_before,
       chunk.rewrites
FROM risk_scope_hourly_chunk chunk
CROSS JOIN LATERAL risk_chunk_entries(chunk.hours, chunk.sums, chunk.counts) AS bucket;

-- as the tables had them, for a writer that keeps the totals itself
ALTER VIEW risk_hourly_agg ALTER COLUMN running_amount SET DEFAULT 0;
ALTER VIEW risk_hourly_agg ALTER COLUMN running_count SET DEFAULT 0;
ALTER VIEW risk_hourly_agg ALTER COLUMN rewrites SET DEFAULT 0;
ALTER VIEW risk_scope_hourly_agg ALTER COLUMN running_amount SET DEFAULT 0;
ALTER VIEW risk_scope_hourly_agg ALTER COLUMN running_count SET DEFAULT 0;
ALTER VIEW risk_scope_hourly_agg ALTER COLUMN rewrites SET DEFAULT 0;

-- A write through risk_hourly_agg: the key's chunks from the one that holds the written hour on (for a
-- delete, that one alone) are deleted, taken apart into buckets, written (risk_buckets_written) and put
-- together again (risk_chunked). A bucket moves to another key or hour only by a delete and an insert.
CREATE FUNCTION risk_hourly_agg_write() RETURNS trigger
    LANGUAGE plpgsql
AS $$
DECLARE
    target risk_hourly_agg := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
    written risk_bucket;
    from_ts timestamp;
    buckets risk_bucket[];
BEGIN
    IF TG_OP = 'UPDATE' AND (NEW.entity_id, NEW.channel_code, NEW.direction_code, NEW.bucket_ts)
                            IS DISTINCT FROM (OLD.entity_id, OLD.channel_code, OLD.direction_code, OLD.bucket_ts) THEN
        RAISE EXCEPTION 'a bucket keeps its key and hour: delete it and insert another'
            USING ERRCODE = 'feature_not_supported';
    END IF;
    written := ROW(risk_hour_number(target.bucket_ts), target.sum_amount, target.tx_count, target.running_amount,
                   target.running_count, target.rewrites);
    SELECT coalesce(max(chunk.first_ts), '-infinity') INTO from_ts
    FROM risk_hourly_chunk chunk
    WHERE (chunk.entity_id, chunk.channel_code, chunk.direction_code)
        = (target.entity_id, target.channel_code, target.direction_code)
      AND chunk.first_ts <= target.bucket_ts;
    WITH taken_apart AS (
        DELETE FROM risk_hourly_chunk chunk
        WHERE (chunk.entity_id, chunk.channel_code, chunk.direction_code)
            = (target.entity_id, target.channel_code, target.direction_code)
          AND chunk.first_ts >= from_ts
          -- a delete changes no other bucket: the chunk that holds it alone
          AND (TG_OP <> 'DELETE' OR chunk.first_ts = from_ts)
        RETURNING chunk.*
    )
    SELECT coalesce(array_agg(ROW(bucket.hour, bucket.sum_amount, bucket.tx_count,
                                  taken_apart.amount_before + bucket.amount_through,
                                  taken_apart.count_before + bucket.count_through,
                                  taken_apart.rewrites)::risk_bucket ORDER BY bucket.hour), '{}')
    INTO buckets
    FROM taken_apart
    CROSS JOIN LATERAL risk_chunk_entries(taken_apart.hours, taken_apart.sums, taken_apart.counts) AS bucket;
    buckets := risk_buckets_written(
        buckets, TG_OP, written,
        current_setting('risk.running_totals_written_by', true) IS NOT DISTINCT FROM 'statement');
    INSERT INTO risk_hourly_chunk (entity_id, channel_code, direction_code, first_ts, hours, sums, counts,
                                   amount_before, count_before, running_amount, running_count, rewrites)
    SELECT target.entity_id, target.channel_code, target.direction_code, chunk.*
    FROM risk_chunked(buckets) AS chunk;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    SELECT bucket.running_amount, bucket.running_count, bucket.rewrites
    INTO NEW.running_amount, NEW.running_count, NEW.rewrites
    FROM unnest(buckets) AS bucket
    WHERE bucket.hour = written.hour;
    NEW.amount_before := NEW.running_amount - NEW.sum_amount;
    NEW.count_before := NEW.running_count - NEW.tx_count;
    NEW.key_hash := risk_business_key_hash(NEW.entity_id, NEW.channel_code, NEW.direction_code);
    RETURN NEW;
END
$$;

CREATE TRIGGER risk_hourly_agg_write
    INSTEAD OF INSERT OR UPDATE OR DELETE ON risk_hourly_agg
    FOR EACH ROW
    EXECUTE FUNCTION risk_hourly_agg_write();

-- risk_hourly_agg_write, for risk_scope_hourly_agg
CREATE FUNCTION risk_scope_hourly_agg_write() RETURNS trigger
    LANGUAGE plpgsql
AS $$
DECLARE
    target risk_scope_hourly_agg := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
    written risk_bucket;
    from_ts timestamp;
    buckets risk_bucket[];
BEGIN
    IF TG_OP = 'UPDATE' AND (NEW.scope, NEW.owner_id, NEW.channel_code, NEW.direction_code, NEW.bucket_ts)
                            IS DISTINCT FROM (OLD.scope, OLD.owner_id, OLD.channel_code, OLD.direction_code,
                                              OLD.bucket_ts) THEN
        RAISE EXCEPTION 'a bucket keeps its key and hour: delete it and insert another'
            USING ERRCODE = 'feature_not_supported';
    END IF;
    written := ROW(risk_hour_number(target.bucket_ts), target.sum_amount, target.tx_count, target.running_amount,
                   target.running_count, target.rewrites);
    SELECT coalesce(max(chunk.first_ts), '-infinity') INTO from_ts
    FROM risk_scope_hourly_chunk chunk
    WHERE (chunk.scope, chunk.owner_id, chunk.channel_code, chunk.direction_code)
        = (target.scope, target.owner_id, target.channel_code, target.direction_code)
      AND chunk.first_ts <= target.bucket_ts;
    WITH taken_apart AS (
        DELETE FROM risk_scope_hourly_chunk chunk
        WHERE (chunk.scope, chunk.owner_id, chunk.channel_code, chunk.direction_code)
            = (target.scope, target.owner_id, target.channel_code, target.direction_code)
          AND chunk.first_ts >= from_ts
          -- a delete changes no other bucket: the chunk that holds it alone
          AND (TG_OP <> 'DELETE' OR chunk.first_ts = from_ts)
        RETURNING chunk.*
    )
    SELECT coalesce(array_agg(ROW(bucket.hour, bucket.sum_amount, bucket.tx_count,
                                  taken_apart.amount_before + bucket.amount_through,
                                  taken_apart.count_before + bucket.count_through,
                                  taken_apart.rewrites)::risk_bucket ORDER BY bucket.hour), '{}')
    INTO buckets
    FROM taken_apart
    CROSS JOIN LATERAL risk_chunk_entries(taken_apart.hours, taken_apart.sums, taken_apart.counts) AS bucket;
    buckets := risk_buckets_written(
        buckets, TG_OP, written,
        current_setting('risk.running_totals_written_by', true) IS NOT DISTINCT FROM 'statement');
    INSERT INTO risk_scope_hourly_chunk (scope, owner_id, channel_code, direction_code, first_ts, hours, sums, counts,
                                         amount_before, count_before, running_amount, running_count, rewrites)
    SELECT target.scope, target.owner_id, target.channel_code, target.direction_code, chunk.*
    FROM risk_chunked(buckets) AS chunk;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    SELECT bucket.running_amount, bucket.running_count, bucket.rewrites
    INTO NEW.running_amount, NEW.running_count, NEW.rewrites
    FROM unnest(buckets) AS bucket
    WHERE bucket.hour = written.hour;
    NEW.amount_before := NEW.running_amount - NEW.sum_amount;
    NEW.count_before := NEW.running_count - NEW.tx_count;
    NEW.key_hash := risk_scope_key_hash(NEW.scope, NEW.owner_id, NEW.channel_code, NEW.direction_code);
    RETURN NEW;
END
$$;

CREATE TRIGGER risk_scope_hourly_agg_write
    INSTEAD OF INSERT OR UPDATE OR DELETE ON risk_scope_hourly_agg
    FOR EACH ROW
    EXECUTE FUNCTION risk_scope_hourly_agg_write();

-- A write through a view rewrites chunks (deletes and inserts them) with the rights of the migrating role,
-- so that a role that may insert and update buckets need not delete chunks; the search path is fixed.
-- Its lookups take the primary key whatever the planner's estimates: planned as a sequential scan, as for
-- a table whose statistics say it is empty, every row of a bulk load through the view would read the whole
-- growing table.
DO $$
BEGIN
    EXECUTE format('ALTER FUNCTION risk_hourly_agg_write() SECURITY DEFINER SET search_path = %I, pg_temp',
                   current_schema());
    EXECUTE format('ALTER FUNCTION risk_scope_hourly_agg_write() SECURITY DEFINER SET search_path = %I, pg_temp',
                   current_schema());
END
$$;
ALTER FUNCTION risk_hourly_agg_write() SET enable_seqscan = off;
ALTER FUNCTION risk_scope_hourly_agg_write() SET enable_seqscan = off;

GRANT SELECT, INSERT, UPDATE ON risk_hourly_chunk, risk_scope_hourly_chunk, risk_hourly_agg, risk_scope_hourly_agg
    TO risk_decider;
GRANT SELECT, UPDATE, DELETE ON risk_hourly_chunk, risk_scope_hourly_chunk TO risk_archiver;
GRANT SELECT, DELETE ON risk_hourly_agg, risk_scope_hourly_agg TO risk_archiver;
