-- Running (prefix) totals per business key, so that a window's usage is the difference of two index
-- lookups instead of a sum over up to 720 hourly rows:
--
--   usage(window) = running total of the key's latest bucket
--                 - (running total of the first bucket inside the window - that bucket's own sum)
--
-- Only rows inside the window are read, so deleting buckets older than the retention (the archiver)
-- never changes an answer. The totals are derived by triggers from sum_amount and tx_count, so every
-- writer (the decider, an operator, a bulk load) keeps them right without knowing about them.

ALTER TABLE risk_hourly_agg
    ADD COLUMN running_amount numeric NOT NULL DEFAULT 0,  -- numeric: years of 1e15 amounts overflow bigint
    ADD COLUMN running_count  bigint  NOT NULL DEFAULT 0;

UPDATE risk_hourly_agg AS bucket
SET running_amount = totals.running_amount,
    running_count  = totals.running_count
FROM (SELECT entity_id, channel_code, direction_code, bucket_ts,
             sum(sum_amount) OVER key_history AS running_amount,
             sum(tx_count)   OVER key_history AS running_count
      FROM risk_hourly_agg
      WINDOW key_history AS (PARTITION BY entity_id, channel_code, direction_code ORDER BY bucket_ts)) AS totals
WHERE (bucket.entity_id, bucket.channel_code, bucket.direction_code, bucket.bucket_ts)
    = (totals.entity_id, totals.channel_code, totals.direction_code, totals.bucket_ts);

-- A new bucket continues from the latest earlier bucket of its key; a changed bucket moves by its delta.
CREATE FUNCTION risk_hourly_agg_set_running_totals() RETURNS trigger
    LANGUAGE plpgsql
AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT coalesce(earlier.running_amount, 0) + NEW.sum_amount,
               coalesce(earlier.running_count, 0) + NEW.tx_count
        INTO NEW.running_amount, NEW.running_count
        FROM (SELECT 1) AS one
        LEFT JOIN LATERAL (SELECT running_amount, running_count
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

-- Later buckets include this one in their totals. The decider always writes the newest bucket, so
-- this finds nothing to update unless the clock stepped back or history is loaded out of order.
CREATE FUNCTION risk_hourly_agg_carry_forward() RETURNS trigger
    LANGUAGE plpgsql
AS $$
DECLARE
    amount_delta numeric := NEW.sum_amount - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.sum_amount END;
    count_delta  bigint  := NEW.tx_count - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.tx_count END;
BEGIN
    UPDATE risk_hourly_agg
    SET running_amount = running_amount + amount_delta,
        running_count  = running_count + count_delta
    WHERE entity_id = NEW.entity_id
      AND channel_code = NEW.channel_code
      AND direction_code = NEW.direction_code
      AND bucket_ts > NEW.bucket_ts;
    RETURN NULL;
END
$$;

CREATE TRIGGER risk_hourly_agg_running_totals
    BEFORE INSERT OR UPDATE OF sum_amount, tx_count ON risk_hourly_agg
    FOR EACH ROW EXECUTE FUNCTION risk_hourly_agg_set_running_totals();

-- Fires only when sum_amount or tx_count change, so its own UPDATE (running columns only) does not
-- fire it again.
CREATE TRIGGER risk_hourly_agg_running_totals_forward
    AFTER INSERT OR UPDATE OF sum_amount, tx_count ON risk_hourly_agg
    FOR EACH ROW EXECUTE FUNCTION risk_hourly_agg_carry_forward();
