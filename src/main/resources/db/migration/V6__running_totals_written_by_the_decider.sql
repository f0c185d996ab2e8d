-- The batched decider writes the running totals of its buckets itself, in the same statement as the
-- buckets (HourlyUsageRepository.ADD_TO_BUCKETS_WITH_RUNNING_TOTALS): one set-based lookup of each
-- key's latest earlier bucket and one set-based carry-forward, instead of two plpgsql trigger calls
-- per bucket row, which were the largest share of a batch's database time.
--
-- The triggers stay for every other writer (the per-event mode, operators, bulk loads). A transaction
-- whose statements maintain the totals says so with
--   SELECT set_config('risk.running_totals_written_by', 'statement', true)
-- (transaction-local, so it cannot leak to the next transaction on a pooled connection, nor through
-- PgBouncer), and for the rest of that transaction the triggers stand aside.

DROP TRIGGER risk_hourly_agg_running_totals ON risk_hourly_agg;
DROP TRIGGER risk_hourly_agg_running_totals_forward ON risk_hourly_agg;

CREATE TRIGGER risk_hourly_agg_running_totals
    BEFORE INSERT OR UPDATE OF sum_amount, tx_count ON risk_hourly_agg
    FOR EACH ROW
    WHEN (current_setting('risk.running_totals_written_by', true) IS DISTINCT FROM 'statement')
    EXECUTE FUNCTION risk_hourly_agg_set_running_totals();

CREATE TRIGGER risk_hourly_agg_running_totals_forward
    AFTER INSERT OR UPDATE OF sum_amount, tx_count ON risk_hourly_agg
    FOR EACH ROW
    WHEN (current_setting('risk.running_totals_written_by', true) IS DISTINCT FROM 'statement')
    EXECUTE FUNCTION risk_hourly_agg_carry_forward();
