-- A batch takes its locks in two steps: first the business keys and the entity scopes, with which it
-- reads their usage and the originals of its reversals; then the account scopes (its events' and its
-- originals'), with which it reads theirs. Accounts are shared by entities on every partition, so
-- their locks are the ones batches wait for: they are now held from the account reads on, no longer
-- also through the reads of the business keys and entities. Every batch takes all of its first-step
-- locks before any second-step lock, and each step in ascending hash order, so the order of all locks
-- is one (step, hash) order and two batches still cannot deadlock.
--
-- The start of a batch of V5 took all locks in one hash order: a decider of that version, whose order
-- would cross this one, fails at its first batch instead of deciding beside this version's.
DROP FUNCTION risk_begin_scoped_batch_decision(uuid[], text[], text[], text[], uuid[], text[], text[],
                                               uuid[], text[], text[], uuid[]);

-- Takes the transaction-scoped advisory locks of these ids, each once, in ascending order: the one
-- order in which a step of a batch takes its locks.
CREATE FUNCTION risk_lock_in_ascending_order(lock_ids bigint[])
    RETURNS void
    LANGUAGE plpgsql
AS $$
DECLARE
    lock_id bigint;
BEGIN
    FOR lock_id IN SELECT DISTINCT id FROM unnest(lock_ids) AS id ORDER BY 1
    LOOP
        PERFORM pg_advisory_xact_lock(lock_id);
    END LOOP;
END
$$;

-- The start of every batched decision, in order:
--   1. refuses a transaction that is not READ COMMITTED (SQLSTATE 25000);
--   2. locks the business keys and the given scope keys (the entity scopes; account scopes belong to
--      risk_lock_scope_keys), in ascending 64-bit hash order, each once;
--   3. tells the running-totals triggers that this transaction's statements write the totals;
--   4. returns the database clock read after the locks.
CREATE FUNCTION risk_begin_scoped_batch_decision(
    entity_ids uuid[], channel_codes text[], direction_codes text[],
    scopes text[], owner_ids uuid[], scope_channel_codes text[], scope_direction_codes text[])
    RETURNS TABLE (decided_at timestamptz)
    LANGUAGE plpgsql
AS $$
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION 'risk-limits decides in READ COMMITTED transactions only, this one is %',
            upper(current_setting('transaction_isolation'))
            USING ERRCODE = 'invalid_transaction_state';
    END IF;
    PERFORM risk_lock_in_ascending_order(ARRAY(
        SELECT risk_business_key_hash(key.entity_id, key.channel_code, key.direction_code)
        FROM unnest(entity_ids, channel_codes, direction_codes) AS key (entity_id, channel_code, direction_code)
        UNION ALL
        SELECT risk_scope_key_hash(scope_key.scope, scope_key.owner_id, scope_key.channel_code,
                                   scope_key.direction_code)
        FROM unnest(scopes, owner_ids, scope_channel_codes, scope_direction_codes)
             AS scope_key (scope, owner_id, channel_code, direction_code)));
    PERFORM set_config('risk.running_totals_written_by', 'statement', true);
    RETURN QUERY SELECT clock_timestamp();
END
$$;

-- The second step of a batch's locks: the account scopes of its events and of its reversals'
-- originals (read under the first step's locks), in ascending hash order, each once. Returns the
-- database clock read after the locks: the time of the batch's decisions.
CREATE FUNCTION risk_lock_scope_keys(
    scopes text[], owner_ids uuid[], channel_codes text[], direction_codes text[])
    RETURNS TABLE (decided_at timestamptz)
    LANGUAGE plpgsql
AS $$
BEGIN
    PERFORM risk_lock_in_ascending_order(ARRAY(
        SELECT risk_scope_key_hash(scope_key.scope, scope_key.owner_id, scope_key.channel_code,
                                   scope_key.direction_code)
        FROM unnest(scopes, owner_ids, channel_codes, direction_codes)
             AS scope_key (scope, owner_id, channel_code, direction_code)));
    RETURN QUERY SELECT clock_timestamp();
END
$$;

GRANT EXECUTE ON FUNCTION risk_begin_scoped_batch_decision(uuid[], text[], text[], text[], uuid[], text[], text[]),
                          risk_lock_scope_keys(text[], uuid[], text[], text[]),
                          risk_lock_in_ascending_order(bigint[])
    TO risk_decider;
