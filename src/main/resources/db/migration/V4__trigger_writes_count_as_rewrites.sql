-- Every write through the running-totals triggers counts as a rewrite of its key's history.
--
-- risk_hourly_agg.rewrites counts how often a key's history up to a bucket was written after the
-- fact, and the decider uses the window starts it remembers for a key only while the key's latest
-- bucket carries the count they were read with. A writer that leaves the totals to the triggers (an
-- operator's UPDATE of the amounts, a bulk load or backfill INSERT) may change
-- any bucket, the latest included, or add a new latest bucket, and so change what a window without
-- a bucket of the key starts from (the latest bucket's totals). So the bucket it writes counts the
-- write, as the later buckets already do (risk_hourly_agg_carry_forward):
--   a new bucket:      its predecessor's rewrites + 1;
--   a changed bucket:  its own rewrites + 1 (whether or not the amounts moved).
-- The decider's own statements write rewrites themselves and the triggers stand aside for them: a
-- bucket the decider adds to in its hour counts no rewrite, so its remembered starts stay in use.

-- Trigger function (BEFORE INSERT or UPDATE of the amounts): a new bucket continues from the latest
-- earlier bucket of its key; a changed bucket moves by its delta; either counts one rewrite more.
--
-- STABLE: it reads the table as it was when the statement began, so in a statement that writes
-- several buckets of one key a new bucket does not continue from one the same statement wrote; the
-- AFTER trigger of that earlier bucket carries its amount forward, and its rewrite, instead, and every
-- bucket's totals are the prefix sums. enable_seqscan off: the lookup always takes the primary key,
-- even with a plan made while the table looked empty, so a statement of many rows stays linear in the
-- rows. Replaced in place: its owner, grants and triggers stay those of V1.
CREATE OR REPLACE FUNCTION risk_hourly_agg_set_running_totals() RETURNS trigger
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
        NEW.rewrites       := OLD.rewrites + 1;
    END IF;
    RETURN NEW;
END
$$;
