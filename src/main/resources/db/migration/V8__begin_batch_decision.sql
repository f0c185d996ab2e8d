-- The start of every batched decision (BatchDecisionStore) in one round trip instead of four: a small
-- poll pays each round trip in full, and on a busy machine each one also waits for the scheduler.
--
-- In order:
--   1. refuses a transaction that is not READ COMMITTED. Under REPEATABLE READ or SERIALIZABLE the
--      snapshot is taken when this statement starts, before the locks are granted, so the reads after
--      it would miss what the previous holder of a key's lock committed. The session asks for READ
--      COMMITTED (spring.datasource.hikari.transaction-isolation); this check also holds behind a
--      pooler where session settings do not stick;
--   2. locks the business keys in one order (risk_lock_business_keys, V3);
--   3. tells the running-totals triggers that this transaction's statements write the totals (V6);
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

GRANT EXECUTE ON FUNCTION risk_begin_batch_decision(uuid[], text[], text[]) TO risk_decider;
