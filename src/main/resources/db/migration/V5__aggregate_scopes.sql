-- Aggregate scopes (docs/contract.md, "Scopes"): usage and limits of an entity across its channels,
-- of an account across its entities on one channel, and of an account across everything.
--
-- A scope key names what one scope adds up:
--   scope            owner_id   channel_code   direction_code
--   entity           entity     '*'            IN or OUT
--   account_channel  account    a channel      IN or OUT
--   account          account    '*'            IN or OUT
-- The business key itself is the 'key' scope and keeps its buckets in risk_hourly_agg; the other
-- three keep theirs in risk_scope_hourly_agg, with the same running totals and rewrites discipline.

-- 64-bit hash of a scope key, in the namespace of risk_business_key_hash: the advisory lock key of
-- the scope key, and the archiver's hash slot of its buckets. Its text starts with the scope's name,
-- which no business key's text does (those start with a UUID), so a scope key and a business key
-- only share a lock where two 64-bit hashes collide.
CREATE FUNCTION risk_scope_key_hash(scope text, owner_id uuid, channel_code text, direction_code text)
    RETURNS bigint
    LANGUAGE sql
    IMMUTABLE
    PARALLEL SAFE
AS $$
    SELECT hashtextextended(scope || ':' || owner_id::text || ':' || channel_code || ':' || direction_code,
                            7236492873190001)  -- namespace: 'risk-limits business key', version 1
$$;

-- Hourly usage per scope key, as risk_hourly_agg holds it per business key (see V1 for the columns).
CREATE TABLE risk_scope_hourly_agg (
    scope          text      NOT NULL CHECK (scope IN ('entity', 'account_channel', 'account')),
    owner_id       uuid      NOT NULL,
    channel_code   text      NOT NULL,
    direction_code text      NOT NULL,
    bucket_ts      timestamp NOT NULL,
    sum_amount     bigint    NOT NULL CHECK (sum_amount >= 0),
    tx_count       integer   NOT NULL CHECK (tx_count >= 0),
    key_hash       bigint    NOT NULL
        GENERATED ALWAYS AS (risk_scope_key_hash(scope, owner_id, channel_code, direction_code)) STORED,
    running_amount numeric   NOT NULL DEFAULT 0,
    running_count  bigint    NOT NULL DEFAULT 0,
    amount_before  numeric   GENERATED ALWAYS AS (running_amount - sum_amount) STORED,
    count_before   bigint    GENERATED ALWAYS AS (running_count - tx_count) STORED,
    rewrites       bigint    NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, owner_id, channel_code, direction_code, bucket_ts) INCLUDE (amount_before, count_before),
    CHECK ((scope = 'account_channel') = (channel_code <> '*'))
) WITH (fillfactor = 85);

CREATE INDEX risk_scope_hourly_agg_archive_idx ON risk_scope_hourly_agg (bucket_ts, key_hash);

-- The running-totals triggers of risk_hourly_agg (V1, V4), for the scope keys' buckets: every writer
-- that does not write the totals itself gets them derived, and counts a rewrite.
CREATE FUNCTION risk_scope_hourly_agg_set_running_totals() RETURNS trigger
    LANGUAGE plpgsql
    STABLE
    SET enable_seqscan = off
AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT coalesce(earlier.running_amount, 0) + NEW.sum_amount,
               coalesce(earlier.running_count, 0) + NEW.tx_count,
               coalesce(earlier.rewrites, 0) + 1
        INTO NEW.running_amount, NEW.running_count, NEW.rewrites
        FROM (SELECT 1) AS one
        LEFT JOIN LATERAL (SELECT running_amount, running_count, rewrites
                           FROM risk_scope_hourly_agg
                           WHERE scope = NEW.scope
                             AND owner_id = NEW.owner_id
                             AND channel_code = NEW.channel_code
                             AND direction_code = NEW.direction_code
                             AND bucket_ts < NEW.bucket_ts
                           ORDER BY bucket_ts DESC
                           LIMIT 1) AS earlier ON true;
    ELSE
        NEW.running_amount := OLD.running_amount + (NEW.sum_amount - OLD.sum_amount);
        NEW.running_count  := OLD.running_count + (NEW.tx_count - OLD.tx_count);
        NEW.rewrites       := OLD.rewrites + 1;
    END IF;
    RETURN NEW;
END
$$;

CREATE FUNCTION risk_scope_hourly_agg_carry_forward() RETURNS trigger
    LANGUAGE plpgsql
    SET enable_seqscan = off
AS $$
DECLARE
    amount_delta numeric := NEW.sum_amount - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.sum_amount END;
    count_delta  bigint  := NEW.tx_count - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.tx_count END;
BEGIN
    UPDATE risk_scope_hourly_agg
    SET running_amount = running_amount + amount_delta,
        running_count  = running_count + count_delta,
        rewrites       = rewrites + 1
    WHERE scope = NEW.scope
      AND owner_id = NEW.owner_id
      AND channel_code = NEW.channel_code
      AND direction_code = NEW.direction_code
      AND bucket_ts > NEW.bucket_ts;
    RETURN NULL;
END
$$;

CREATE TRIGGER risk_scope_hourly_agg_running_totals
    BEFORE INSERT OR UPDATE OF sum_amount, tx_count ON risk_scope_hourly_agg
    FOR EACH ROW
    WHEN (current_setting('risk.running_totals_written_by', true) IS DISTINCT FROM 'statement')
    EXECUTE FUNCTION risk_scope_hourly_agg_set_running_totals();

CREATE TRIGGER risk_scope_hourly_agg_running_totals_forward
    AFTER INSERT OR UPDATE OF sum_amount, tx_count ON risk_scope_hourly_agg
    FOR EACH ROW
    WHEN (current_setting('risk.running_totals_written_by', true) IS DISTINCT FROM 'statement')
    EXECUTE FUNCTION risk_scope_hourly_agg_carry_forward();

-- The entity scope from the first event on: every authorization approved before this migration was
-- counted at its business key, and so belongs to its entity's usage too. The account scopes start
-- empty: no event before this migration carried an account. The totals are written by the statement.
SELECT set_config('risk.running_totals_written_by', 'statement', true);

INSERT INTO risk_scope_hourly_agg (scope, owner_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count,
                                   running_amount, running_count, rewrites)
SELECT 'entity', entity_id, '*', direction_code, bucket_ts, sum_amount, tx_count,
       sum(sum_amount) OVER entity_history, sum(tx_count) OVER entity_history, 0
FROM (SELECT entity_id, direction_code, bucket_ts,
             CAST(sum(sum_amount) AS bigint) AS sum_amount, CAST(sum(tx_count) AS integer) AS tx_count
      FROM risk_hourly_agg
      GROUP BY entity_id, direction_code, bucket_ts) AS entity_bucket
WINDOW entity_history AS (PARTITION BY entity_id, direction_code ORDER BY bucket_ts);

SELECT set_config('risk.running_totals_written_by', '', true);

-- Where an authorization was counted: at its business key and its entity, and, when it carried an
-- account, at that account's two scopes. A follow-up releases where its original was counted.
ALTER TABLE risk_request_log ADD COLUMN account_id uuid;

-- The account an INVALID event without a readable business key named, echoed on its decision.
ALTER TABLE risk_keyless_request_log ADD COLUMN account_id uuid;

-- The usage and limits of the scopes other than the key's with a limit in force, as published in
-- the decision's "scopes"; null when there were none.
ALTER TABLE risk_request_log ADD COLUMN scopes json;

ALTER TABLE risk_limit
    ADD COLUMN scope text NOT NULL DEFAULT 'key'
        CHECK (scope IN ('key', 'entity', 'account_channel', 'account')),
    ADD COLUMN account_id uuid,
    -- entity and account add up all channels together
    ADD CONSTRAINT risk_limit_all_channel_scopes CHECK (scope NOT IN ('entity', 'account') OR channel = '*'),
    -- an override names the owner of its scope: an entity for key and entity, an account for the others
    ADD CONSTRAINT risk_limit_entity_override CHECK (entity_id IS NULL OR scope IN ('key', 'entity')),
    ADD CONSTRAINT risk_limit_account_override CHECK (account_id IS NULL OR scope IN ('account_channel', 'account'));

DROP INDEX risk_limit_scope_idx;

-- One row per scope, owner, channel, direction, window and mode.
CREATE UNIQUE INDEX risk_limit_scope_idx ON risk_limit (
    scope, channel, direction,
    coalesce(entity_id, '00000000-0000-0000-0000-000000000000'::uuid),
    coalesce(account_id, '00000000-0000-0000-0000-000000000000'::uuid),
    window_name, mode);

-- The start of a batch of an earlier version locked business keys only: a decider of that version,
-- which would not count the scopes, fails at its first batch instead of deciding on this schema.
DROP FUNCTION risk_begin_batch_decision(uuid[], text[], text[]);
DROP FUNCTION risk_lock_business_keys(uuid[], text[], text[]);

-- The start of every batched decision, with scopes (V1's risk_begin_batch_decision, dropped above,
-- without them): in order,
--   1. refuses a transaction that is not READ COMMITTED (SQLSTATE 25000);
--   2. finds the account of every original the batch's follow-ups name, as committed so far;
--   3. locks, in one order (ascending 64-bit hash, business keys and scope keys together, each once),
--      the business keys, the scope keys, and the account scopes of those originals, so two batches
--      that share any key can never deadlock;
--   4. tells the running-totals triggers that this transaction's statements write the totals;
--   5. returns the database clock read after the locks, and each original's account (aligned with
--      the originals given; null where not found or without one). An original committed after step 2
--      (by the holder of its business key's lock) is read by the caller under the locks; when its
--      account scopes are not among the locked ones, the caller begins again with them.
CREATE FUNCTION risk_begin_scoped_batch_decision(
    entity_ids uuid[], channel_codes text[], direction_codes text[],
    scopes text[], owner_ids uuid[], scope_channel_codes text[], scope_direction_codes text[],
    original_entity_ids uuid[], original_channel_codes text[], original_direction_codes text[],
    original_dedupe_ids uuid[])
    RETURNS TABLE (decided_at timestamptz, original_account_ids uuid[])
    LANGUAGE plpgsql
AS $$
DECLARE
    accounts uuid[];
    lock_id  bigint;
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'risk-limits decides in READ COMMITTED transactions only, this one is %',
            upper(current_setting('transaction_isolation'))
            USING ERRCODE = 'invalid_transaction_state';
    END IF;
    SELECT coalesce(array_agg(logged.account_id ORDER BY original.position), '{}')
    INTO accounts
    FROM unnest(original_entity_ids, original_channel_codes, original_direction_codes, original_dedupe_ids)
         WITH ORDINALITY AS original (entity_id, channel_code, direction_code, dedupe_id, position)
    LEFT JOIN risk_request_log logged
           ON logged.entity_id = original.entity_id
          AND logged.channel_code = original.channel_code
          AND logged.direction_code = original.direction_code
          AND logged.dedupe_id = original.dedupe_id;
    FOR lock_id IN
        SELECT risk_business_key_hash(key.entity_id, key.channel_code, key.direction_code)
        FROM unnest(entity_ids, channel_codes, direction_codes) AS key (entity_id, channel_code, direction_code)
        UNION
        SELECT risk_scope_key_hash(scope_key.scope, scope_key.owner_id, scope_key.channel_code,
                                   scope_key.direction_code)
        FROM unnest(scopes, owner_ids, scope_channel_codes, scope_direction_codes)
             AS scope_key (scope, owner_id, channel_code, direction_code)
        UNION
        SELECT risk_scope_key_hash(account_scope.scope, original.account_id, account_scope.channel_code,
                                   original.direction_code)
        FROM unnest(accounts, original_channel_codes, original_direction_codes)
             AS original (account_id, channel_code, direction_code)
        CROSS JOIN LATERAL (VALUES ('account_channel', original.channel_code), ('account', '*'))
             AS account_scope (scope, channel_code)
        WHERE original.account_id IS NOT NULL
        ORDER BY 1
    LOOP
        PERFORM pg_advisory_xact_lock(lock_id);
    END LOOP;
    PERFORM set_config('risk.running_totals_written_by', 'statement', true);
    RETURN QUERY SELECT clock_timestamp(), accounts;
END
$$;

GRANT SELECT, INSERT, UPDATE ON risk_scope_hourly_agg TO risk_decider;
GRANT EXECUTE ON FUNCTION risk_scope_key_hash(text, uuid, text, text),
                          risk_begin_scoped_batch_decision(uuid[], text[], text[], text[], uuid[], text[], text[],
                                                           uuid[], text[], text[], uuid[])
    TO risk_decider;
GRANT SELECT, DELETE ON risk_scope_hourly_agg TO risk_archiver;
GRANT EXECUTE ON FUNCTION risk_scope_key_hash(text, uuid, text, text) TO risk_archiver;
