-- Every approved event updates its key's current bucket. Since V7 the primary key INCLUDEd sum_amount,
-- tx_count and the running totals, all of which such an update changes, so PostgreSQL could never
-- update a bucket in place (a HOT update): each one wrote a new entry into the primary key and into
-- the archive index, about two thirds of the bucket statement's page accesses.
--
-- What the usage probes need from the first bucket inside a window is the running total before that
-- bucket (RunningUsageRepository). Kept as generated columns, those totals do not change when the
-- bucket itself grows (running total and own sum move together), so an index that carries only them
-- still makes the window probes index-only scans, and the current bucket's updates change no indexed
-- value and can stay on their heap page. fillfactor leaves each new page room for those updates.
--
-- The primary key keeps its name and columns, so ON CONFLICT and every query keep working. Adding
-- stored columns rewrites the table and building the index reads it once: on a large table run this
-- migration in a quiet hour.

ALTER TABLE risk_hourly_agg
    ADD COLUMN amount_before numeric GENERATED ALWAYS AS (running_amount - sum_amount) STORED,
    ADD COLUMN count_before  bigint  GENERATED ALWAYS AS (running_count - tx_count) STORED,
    SET (fillfactor = 85);

CREATE UNIQUE INDEX risk_hourly_agg_key_bucket_before
    ON risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts)
    INCLUDE (amount_before, count_before);

ALTER TABLE risk_hourly_agg
    DROP CONSTRAINT risk_hourly_agg_pkey,
    ADD CONSTRAINT risk_hourly_agg_pkey PRIMARY KEY USING INDEX risk_hourly_agg_key_bucket_before;
