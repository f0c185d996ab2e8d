-- The running-totals triggers of both bucket tables (V1, V4, V5): a bucket whose amounts an UPDATE
-- changes is now moved by its delta in the AFTER trigger, with its later buckets, and the BEFORE trigger
-- fires on INSERT only.
--
-- A table with a BEFORE UPDATE row trigger has every row an UPDATE changes locked for the trigger
-- (PostgreSQL fetches the old row under a tuple lock, with a WAL record of its own) before the trigger's
-- WHEN clause is evaluated: the decider's updates of this hour's buckets paid that lock although the
-- triggers stand aside for them. An AFTER trigger reads the old row without a lock.
--
-- For every other writer the totals come out as before: the changed bucket ends at its totals before the
-- update plus the delta, whatever the update wrote into them, and counts the rewrite; the move is
-- relative to the row as it is when the trigger fires, so what the AFTER triggers of other rows of the
-- same statement carried into it stays. The trigger's own updates write only the totals and rewrites,
-- which fire no trigger (UPDATE OF sum_amount, tx_count).

CREATE OR REPLACE FUNCTION risk_hourly_agg_set_running_totals() RETURNS trigger
    LANGUAGE plpgsql
    STABLE
    SET enable_seqscan = off
AS $$
BEGIN
    SELECT coalesce(earlier.running_amount, 0) + NEW.sum_amount,
           coalesce(earlier.running_count, 0) + NEW.tx_count,
           coalesce(earlier.rewrites, 0) + 1
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
    RETURN NEW;
END
$$;

CREATE OR REPLACE FUNCTION risk_hourly_agg_carry_forward() RETURNS trigger
    LANGUAGE plpgsql
    SET enable_seqscan = off
AS $$
DECLARE
    amount_delta numeric := NEW.sum_amount - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.sum_amount END;
    count_delta  bigint  := NEW.tx_count - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.tx_count END;
BEGIN
    IF TG_OP = 'UPDATE' THEN
        UPDATE risk_hourly_agg
        SET running_amount = running_amount - NEW.running_amount + OLD.running_amount + amount_delta,
            running_count  = running_count - NEW.running_count + OLD.running_count + count_delta,
            rewrites       = rewrites - NEW.rewrites + OLD.rewrites + 1
        WHERE entity_id = NEW.entity_id
          AND channel_code = NEW.channel_code
          AND direction_code = NEW.direction_code
          AND bucket_ts = NEW.bucket_ts;
    END IF;
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

DROP TRIGGER risk_hourly_agg_running_totals ON risk_hourly_agg;
CREATE TRIGGER risk_hourly_agg_running_totals
    BEFORE INSERT ON risk_hourly_agg
    FOR EACH ROW
    WHEN (current_setting('risk.running_totals_written_by', true) IS DISTINCT FROM 'statement')
    EXECUTE FUNCTION risk_hourly_agg_set_running_totals();

CREATE OR REPLACE FUNCTION risk_scope_hourly_agg_set_running_totals() RETURNS trigger
    LANGUAGE plpgsql
    STABLE
    SET enable_seqscan = off
AS $$
BEGIN
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
    RETURN NEW;
END
$$;

CREATE OR REPLACE FUNCTION risk_scope_hourly_agg_carry_forward() RETURNS trigger
    LANGUAGE plpgsql
    SET enable_seqscan = off
AS $$
DECLARE
    amount_delta numeric := NEW.sum_amount - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.sum_amount END;
    count_delta  bigint  := NEW.tx_count - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.tx_count END;
BEGIN
    IF TG_OP = 'UPDATE' THEN
        UPDATE risk_scope_hourly_agg
        SET running_amount = running_amount - NEW.running_amount + OLD.running_amount + amount_delta,
            running_count  = running_count - NEW.running_count + OLD.running_count + count_delta,
            rewrites       = rewrites - NEW.rewrites + OLD.rewrites + 1
        WHERE scope = NEW.scope
          AND owner_id = NEW.owner_id
          AND channel_code = NEW.channel_code
          AND direction_code = NEW.direction_code
          AND bucket_ts = NEW.bucket_ts;
    END IF;
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

DROP TRIGGER risk_scope_hourly_agg_running_totals ON risk_scope_hourly_agg;
CREATE TRIGGER risk_scope_hourly_agg_running_totals
    BEFORE INSERT ON risk_scope_hourly_agg
    FOR EACH ROW
    WHEN (current_setting('risk.running_totals_written_by', true) IS DISTINCT FROM 'statement')
    EXECUTE FUNCTION risk_scope_hourly_agg_set_running_totals();
