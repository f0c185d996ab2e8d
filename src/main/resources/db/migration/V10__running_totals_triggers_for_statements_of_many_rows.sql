-- The running-totals triggers (V2) were right for a statement that writes one bucket, which is what
-- the per-event decider does, and wrong or slow for one that writes many: an operator's backfill.
--
-- Wrong: the BEFORE trigger, a volatile function, saw the rows its own statement had inserted before
-- the current one, so a new bucket continued from an earlier bucket of the same statement; then the
-- AFTER trigger of that earlier bucket, which runs when the statement ends, added its amount to the
-- later bucket again. Three buckets of 10 in one INSERT got running totals 10, 30, 50. As a STABLE
-- function it reads the table as it was when the statement began, and the AFTER triggers add what
-- the statement wrote: 10, 20, 30.
--
-- Slow: PL/pgSQL plans the triggers' lookups once per session and keeps the plan. Planned while the
-- table is small (a new deployment, or statistics from before a load), the plan reads the whole
-- table, and within one statement that inserts many rows it is not planned again: every row reads
-- the growing table, hours for a few hundred thousand rows. With sequential scans off for their own
-- statements the triggers always take the primary key, which each lookup needs whatever the size.

ALTER FUNCTION risk_hourly_agg_set_running_totals() STABLE SET enable_seqscan = off;
ALTER FUNCTION risk_hourly_agg_carry_forward() SET enable_seqscan = off;
