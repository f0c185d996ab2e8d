-- The decider's tables: hourly usage buckets with running totals, the request/audit log, the limits
-- with their default rows, and the functions that lock business keys and begin a batched decision.
-- Operators query these tables: their names, and the columns docs/contract.md names, keep their meaning.

-- 64-bit hash of the business key, in this product's own hash namespace. It is the advisory lock
-- key of the decider (pg_advisory_xact_lock) and is stored on the rows so that the archiver can
-- split its deletes into disjoint hash ranges.
CREATE FUNCTION risk_business_key_hash(entity_id uuid, channel_code text, direction_code text)
    RETURNS bigint
    LANGUAGE sql
    IMMUTABLE
    PARALLEL SAFE
AS $$
    SELECT hashtextextended(entity_id::text || ':' || channel_code || ':' || direction_code,
                            7236492873190001)  -- namespace: 'risk-limits business key', version 1
$$;

-- Hourly usage per business key. bucket_ts is the UTC hour of the database clock at decision time.
--
-- Each bucket also carries the running (prefix) totals of its key up to and including itself, so
-- that a window's usage is the difference of two index lookups instead of a sum over up to 720
-- hourly rows:
--
--   usage(window) = running total of the key's latest bucket
--                 - running total before the first bucket inside the window (amount_before, count_before)
--
-- Only rows inside the window are read, so deleting buckets older than the retention (the archiver)
-- never changes an answer. The batched decider writes the totals in its own statements; for every
-- other writer the triggers below derive them (docs/adr/0001-running-totals.md).
--
-- The primary key carries the totals before each bucket, so the decider's window probes are
-- index-only scans; those totals do not change when the bucket grows, so adding to the current
-- bucket changes no indexed value and the update stays on its heap page (HOT), for which fillfactor
-- leaves room on every new page (docs/adr/0002-bucket-key-and-in-place-updates.md).
CREATE TABLE risk_hourly_agg (
    entity_id      uuid      NOT NULL,
    channel_code   text      NOT NULL,
    direction_code text      NOT NULL,
    bucket_ts      timestamp NOT NULL,
    sum_amount     bigint    NOT NULL CHECK (sum_amount >= 0),
    tx_count       integer   NOT NULL CHECK (tx_count >= 0),
    key_hash       bigint    NOT NULL
        GENERATED ALWAYS AS (risk_business_key_hash(entity_id, channel_code, direction_code)) STORED,
    running_amount numeric   NOT NULL DEFAULT 0,  -- numeric: years of 1e15 amounts overflow bigint
    running_count  bigint    NOT NULL DEFAULT 0,
    amount_before  numeric   GENERATED ALWAYS AS (running_amount - sum_amount) STORED,
    count_before   bigint    GENERATED ALWAYS AS (running_count - tx_count) STORED,
    -- how often the key's history up to this bucket was written after the fact: a new bucket starts from
    -- its predecessor's count; a release adds 1 to its own bucket and every later one; any other write into
    -- an earlier hour adds 1 to every later bucket, and a write through the triggers also to its own (V4).
    -- The decider's remembered window starts of a key stay valid while its latest bucket's count is unchanged.
    rewrites       bigint    NOT NULL DEFAULT 0,
    PRIMARY KEY (entity_id, channel_code, direction_code, bucket_ts) INCLUDE (amount_before, count_before)
) WITH (fillfactor = 85);

-- Trigger function (BEFORE INSERT or UPDATE of the amounts): a new bucket continues from the latest
-- earlier bucket of its key; a changed bucket moves by its delta.
--
-- STABLE: it reads the table as it was when the statement began, so in a statement that writes
-- several buckets of one key a new bucket does not continue from one the same statement wrote; the
-- AFTER trigger of that earlier bucket carries its amount forward instead, and every bucket's totals
-- are the prefix sums. enable_seqscan off: the lookup always takes the primary key, even with a plan
-- made while the table looked empty, so a statement of many rows stays linear in the rows.
CREATE FUNCTION risk_hourly_agg_set_running_totals() RETURNS trigger
    LANGUAGE plpgsql
    STABLE
    SET enable_seqscan = off
AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT coalesce(earlier.running_amount, 0) + NEW.sum_amount,
               coalesce(earlier.running_count, 0) + NEW.tx_count,
               coalesce(earlier.rewrites, 0)
        INTO NEW.running_amount, NEW.running_count, NEW.rewrites
        FROM (SELECT 1) AS one
        LEFT JOIN LATERAL (SELECT running_amount, running_count, rewrites
                           FROM risk_hourly_agg
                           WHERE entity_id = NEW.entity_id
                             AND channel_code = NEW.channel_code
                             AND direction_code = NEW.direction_code
                             AND bucket_ts < NEW.bucket_ts
                           ORDER BY bucket_ts DESC
                           LIMIT 1) AS earlier ON true;
    ELSE
        NEW.running_amount := OLD.running_amount + (NEW.sum_amount - OLD.sum_amount);
        NEW.running_count  := OLD.running_count + (NEW.tx_count - OLD.tx_count);
    END IF;
    RETURN NEW;
END
$$;

-- Trigger function (AFTER INSERT or UPDATE of the amounts): later buckets include this one in their
-- totals, and count the rewrite. The decider always writes the newest bucket, so this finds nothing to update unless the
-- clock stepped back or history is loaded out of order. enable_seqscan off, as above: the update
-- always takes the primary key.
CREATE FUNCTION risk_hourly_agg_carry_forward() RETURNS trigger
    LANGUAGE plpgsql
    SET enable_seqscan = off
AS $$
DECLARE
    amount_delta numeric := NEW.sum_amount - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.sum_amount END;
    count_delta  bigint  := NEW.tx_count - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.tx_count END;
BEGIN
    UPDATE risk_hourly_agg
    SET running_amount = running_amount + amount_delta,
        running_count  = running_count + count_delta,
        rewrites       = rewrites + 1
    WHERE entity_id = NEW.entity_id
      AND channel_code = NEW.channel_code
      AND direction_code = NEW.direction_code
      AND bucket_ts > NEW.bucket_ts;
    RETURN NULL;
END
$$;

-- The triggers keep the running totals right for every writer that does not write them itself
-- (operators, bulk loads, backfills). A transaction whose statements maintain the totals says so
-- with
--   SELECT set_config('risk.running_totals_written_by', 'statement', true)
-- (transaction-local, so it cannot leak to the next transaction on a pooled connection, nor through
-- PgBouncer), and for the rest of that transaction the triggers stand aside.
CREATE TRIGGER risk_hourly_agg_running_totals
    BEFORE INSERT OR UPDATE OF sum_amount, tx_count ON risk_hourly_agg
    FOR EACH ROW
    WHEN (current_setting('risk.running_totals_written_by', true) IS DISTINCT FROM 'statement')
    EXECUTE FUNCTION risk_hourly_agg_set_running_totals();

-- Fires only when sum_amount or tx_count change, so its own UPDATE (running columns only) does not
-- fire it again.
CREATE TRIGGER risk_hourly_agg_running_totals_forward
    AFTER INSERT OR UPDATE OF sum_amount, tx_count ON risk_hourly_agg
    FOR EACH ROW
    WHEN (current_setting('risk.running_totals_written_by', true) IS DISTINCT FROM 'statement')
    EXECUTE FUNCTION risk_hourly_agg_carry_forward();

-- The request log is also the audit log: one row per dedupe_id per business key, holding the
-- decision and everything it was based on. A replayed event is answered from this row.
-- usage and limits are json, each document kept exactly as the decider wrote it; cast to jsonb in
-- the query for containment or equality (docs/adr/0003-audit-documents-as-json.md).
CREATE TABLE risk_request_log (
    entity_id      uuid        NOT NULL,
    channel_code   text        NOT NULL,
    direction_code text        NOT NULL,
    dedupe_id      uuid        NOT NULL,
    bucket_ts      timestamp   NOT NULL,
    decision       text        NOT NULL CHECK (decision IN ('APPROVED', 'REJECTED', 'RELEASED', 'INVALID')),
    reason         text,
    amount         bigint,                -- null only for an INVALID event whose amount was unusable
    currency       text,
    occurred_at    timestamptz,
    usage          json,                  -- usage before this event; null for INVALID
    limits         json,                  -- limits applied; null for INVALID
    errors         jsonb,                 -- validation errors; INVALID only
    decided_at     timestamptz NOT NULL,
    key_hash       bigint      NOT NULL
        GENERATED ALWAYS AS (risk_business_key_hash(entity_id, channel_code, direction_code)) STORED,
    -- AUTHORIZATION, or REVERSAL; null only for an INVALID event whose type was unusable
    type           text        DEFAULT 'AUTHORIZATION' CHECK (type IN ('AUTHORIZATION', 'REVERSAL')),
    reverses       uuid,                  -- a reversal's original: its dedupe_id under the same business key
    released_amount bigint,               -- RELEASED only: the amount given back to the original's bucket
    released_count smallint,              -- RELEASED only: 1 when it brought the original's remaining to 0
    remaining      bigint,                -- a reversal that found an approved original: still counted after it
    shadow_decision text,                 -- an authorization under shadow limits: what they would have decided
    shadow_reason  text,
    -- the event's place in the batch it was decided in: a key's decisions were made in the order
    -- (decided_at, decided_order), which a backtest replays
    decided_order  integer     NOT NULL DEFAULT 0,
    PRIMARY KEY (entity_id, channel_code, direction_code, dedupe_id)
);

-- What has been given back of each authorization: the sum of its RELEASED reversals, all filed
-- under its business key and so under that key's lock. The log stays append-only: an original's
-- row never changes, and what remains of it is its amount minus this sum.
CREATE INDEX risk_request_log_releases_idx
    ON risk_request_log (entity_id, channel_code, direction_code, reverses) INCLUDE (released_amount)
    WHERE decision = 'RELEASED';

-- INVALID events whose business key itself could not be read (bad entity_id, channel or
-- direction): they cannot be filed under a key, so they are deduplicated by dedupe_id alone.
-- The echoed fields hold the values that passed validation, null for the others.
CREATE TABLE risk_keyless_request_log (
    dedupe_id      uuid        PRIMARY KEY,
    entity_id      uuid,
    channel_code   text,
    direction_code text,
    amount         bigint,
    currency       text,
    occurred_at    timestamptz,
    errors         jsonb       NOT NULL,
    bucket_ts      timestamp   NOT NULL,
    decided_at     timestamptz NOT NULL,
    type           text,
    reverses       uuid
);

-- Limits per scope and window; for each window the most specific matching row wins. Shadow rows are a
-- second set evaluated beside the enforced one (the set limits promote would leave: a shadow row replaces
-- the enforced row of its specificity), reported with each decision and never enforced.
CREATE TABLE risk_limit (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel     text        NOT NULL CHECK (channel = '*' OR channel ~ '^[A-Z0-9_]{1,32}$'),
    direction   text        NOT NULL CHECK (direction IN ('IN', 'OUT', '*')),
    entity_id   uuid,
    window_name text        NOT NULL CHECK (window_name IN ('txn', '24h', '7d', '30d', 'day', 'week', 'month')),
    max_amount  bigint      NOT NULL CHECK (max_amount >= 0),
    max_count   bigint      NOT NULL CHECK (max_count >= 0),  -- ignored for txn
    mode        text        NOT NULL DEFAULT 'enforce' CHECK (mode IN ('enforce', 'shadow')),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

-- One row per scope, window and mode; an absent entity counts as one scope (PostgreSQL 14 has no
-- UNIQUE NULLS NOT DISTINCT, hence the coalesce).
CREATE UNIQUE INDEX risk_limit_scope_idx ON risk_limit (
    channel, direction, coalesce(entity_id, '00000000-0000-0000-0000-000000000000'::uuid), window_name, mode);

-- The defaults for every channel, direction and entity.
INSERT INTO risk_limit (channel, direction, entity_id, window_name, max_amount, max_count)
VALUES ('*', '*', NULL, '24h', 1000000, 100),
       ('*', '*', NULL, '7d', 5000000, 500),
       ('*', '*', NULL, '30d', 20000000, 2000);

-- Locks the business keys of a batch of events, all in one order (ascending 64-bit hash), so two
-- batches that share keys can never deadlock. A plpgsql loop makes the order explicit: a plain
-- SELECT pg_advisory_xact_lock(...) ... ORDER BY does not promise to call the function in that order.
CREATE FUNCTION risk_lock_business_keys(entity_ids uuid[], channel_codes text[], direction_codes text[])
    RETURNS void
    LANGUAGE plpgsql
AS $$
DECLARE
    key_hash bigint;
BEGIN
    FOR key_hash IN
        SELECT DISTINCT risk_business_key_hash(entity_id, channel_code, direction_code) AS hash
        FROM unnest(entity_ids, channel_codes, direction_codes) AS key (entity_id, channel_code, direction_code)
        ORDER BY hash
    LOOP
        PERFORM pg_advisory_xact_lock(key_hash);
    END LOOP;
END
$$;

-- The start of every batched decision (BatchDecisionStore), in one round trip
-- (docs/adr/0004-batched-decision-begins-in-one-statement.md). In order:
--   1. refuses a transaction that is not READ COMMITTED (SQLSTATE 25000). Under REPEATABLE READ or
--      SERIALIZABLE the snapshot is taken when this statement starts, before the locks are granted,
--      so the reads after it would miss what the previous holder of a key's lock committed;
--   2. locks the business keys in one order (risk_lock_business_keys);
--   3. tells the running-totals triggers that this transaction's statements write the totals;
--   4. returns the database clock read after the locks: the decisions of one key are made in clock order.
CREATE FUNCTION risk_begin_batch_decision(entity_ids uuid[], channel_codes text[], direction_codes text[])
    RETURNS timestamptz
    LANGUAGE plpgsql
AS $$
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'risk-limits decides in READ COMMITTED transactions only, this one is %',
            upper(current_setting('transaction_isolation'))
            USING ERRCODE = 'invalid_transaction_state';
    END IF;
    PERFORM risk_lock_business_keys(entity_ids, channel_codes, direction_codes);
    PERFORM set_config('risk.running_totals_written_by', 'statement', true);
    RETURN clock_timestamp();
END
$$;
