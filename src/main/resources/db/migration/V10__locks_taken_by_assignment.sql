-- Takes the transaction-scoped advisory locks of these ids, each once, in ascending order: the one
-- order in which a step of a batch takes its locks (V6), unchanged. Each lock is taken by an
-- assignment, which PL/pgSQL evaluates as a simple expression, where PERFORM ran a query per lock.
CREATE OR REPLACE FUNCTION risk_lock_in_ascending_order(lock_ids bigint[])
    RETURNS void
    LANGUAGE plpgsql
AS $$
DECLARE
    lock_id bigint;
    taken   text;  -- pg_advisory_xact_lock returns void; an assignment needs a value, and void's text is ''
BEGIN
    FOR lock_id IN SELECT DISTINCT id FROM unnest(lock_ids) AS id ORDER BY 1
    LOOP
        taken := pg_advisory_xact_lock(lock_id)::text;
    END LOOP;
END
$$;
