-- Locks the business keys of a batch of events, all in one order (ascending 64-bit hash), so two
-- batches that share keys can never deadlock. A plpgsql loop makes the order explicit: a plain
-- SELECT pg_advisory_xact_lock(...) ... ORDER BY does not promise to call the function in that order.
CREATE FUNCTION risk_lock_business_keys(entity_ids uuid[], channel_codes text[], direction_codes text[])
    RETURNS void
    LANGUAGE plpgsql
AS $$
DECLARE
    key_hash bigint;
BEGIN
    FOR key_hash IN
        SELECT DISTINCT risk_business_key_hash(entity_id, channel_code, direction_code) AS hash
        FROM unnest(entity_ids, channel_codes, direction_codes) AS key (entity_id, channel_code, direction_code)
        ORDER BY hash
    LOOP
        PERFORM pg_advisory_xact_lock(key_hash);
    END LOOP;
END
$$;
