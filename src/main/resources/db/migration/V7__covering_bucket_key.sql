-- The primary key of risk_hourly_agg carries the amounts and running totals (INCLUDE), so that the
-- decider's usage probes (RunningUsageRepository: four per business key) are index-only scans:
-- a key's buckets are adjacent in the index, while in the heap they lie one per hour's page,
-- wherever that hour's inserts went. The probes then touch a few index pages per key instead of
-- an index page and a heap page per probe.
--
-- Same columns and name as before, so ON CONFLICT (entity_id, channel_code, direction_code,
-- bucket_ts) and every query keep working. Building it reads the whole table once; on a large
-- table run this migration in a quiet hour.

CREATE UNIQUE INDEX risk_hourly_agg_key_bucket_covering
    ON risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts)
    INCLUDE (sum_amount, tx_count, running_amount, running_count);

ALTER TABLE risk_hourly_agg
    DROP CONSTRAINT risk_hourly_agg_pkey,
    ADD CONSTRAINT risk_hourly_agg_pkey PRIMARY KEY USING INDEX risk_hourly_agg_key_bucket_covering;
