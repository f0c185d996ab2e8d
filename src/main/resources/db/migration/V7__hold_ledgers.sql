-- The hold lifecycle of contract v3: captures, increments and expiries of authorizations.
--
-- The audit log takes the new event types (CAPTURE, INCREMENT, and EXPIRY for the expiries the service
-- makes), the new decisions (CAPTURED, EXPIRED), and the fields a follow-up or a hold carries.
ALTER TABLE risk_request_log DROP CONSTRAINT risk_request_log_decision_check;
ALTER TABLE risk_request_log ADD CONSTRAINT risk_request_log_decision_check
    CHECK (decision IN ('APPROVED', 'REJECTED', 'RELEASED', 'INVALID', 'CAPTURED', 'EXPIRED'));
ALTER TABLE risk_request_log DROP CONSTRAINT risk_request_log_type_check;
ALTER TABLE risk_request_log ADD CONSTRAINT risk_request_log_type_check
    CHECK (type IN ('AUTHORIZATION', 'REVERSAL', 'CAPTURE', 'INCREMENT', 'EXPIRY'));
ALTER TABLE risk_request_log
    ADD COLUMN original uuid,                     -- a capture's, increment's or expiry's authorization (a reversal's is reverses)
    ADD COLUMN asked_hold_expires_at timestamptz, -- the event's hold_expires_at, as it asked
    ADD COLUMN final boolean,                     -- a capture's final field
    ADD COLUMN hold_expires_at timestamptz,       -- an approved hold's (or increment's) expiry; an expiry's instant
    ADD COLUMN captured bigint,                   -- CAPTURED: taken from what was held
    ADD COLUMN over_captured bigint;              -- CAPTURED: counted anew in the decision's hour
ALTER TABLE risk_keyless_request_log
    ADD COLUMN original uuid,
    ADD COLUMN asked_hold_expires_at timestamptz,
    ADD COLUMN final boolean;

-- What is counted of an approved authorization, hour by hour, once it is a hold or a follow-up acted
-- on it (an authorization that is neither is known from the audit log alone, as in version 2: its
-- amount, minus what its RELEASED reversals gave back, counted in its bucket_ts). Written under the
-- business key's lock only, so what a follow-up or an expiry reads is final until it commits.
--   parts      json array, in the order counted: {"kind": AUTHORIZATION | INCREMENT | OVER_CAPTURE,
--              "hour": the UTC hour bucket, "amount": n, "released": what was given back to that bucket}
--   captured   what captures took of it, from what was held and beyond
--   status     OPEN (a hold still holding, or a final spend still counted), CAPTURED (a final capture
--              closed it), EXPIRED, RELEASED (reversals gave back all of it)
--   expires_at when the hold expires; null for a final spend, which never does
--   count_hour the hour whose bucket holds the authorization's count of 1; null when nothing is counted
--   expiry_published false from an expiry's commit until its EXPIRED decision was sent: the sweep sends
--              it (again) until then
CREATE TABLE risk_authorization_ledger (
    entity_id        uuid        NOT NULL,
    channel_code     text        NOT NULL,
    direction_code   text        NOT NULL,
    dedupe_id        uuid        NOT NULL,
    bucket_ts        timestamp   NOT NULL,  -- the authorization's hour bucket: the archiver deletes by it
    account_id       uuid,
    parts            json        NOT NULL,
    captured         bigint      NOT NULL DEFAULT 0 CHECK (captured >= 0),
    status           text        NOT NULL CHECK (status IN ('OPEN', 'CAPTURED', 'EXPIRED', 'RELEASED')),
    expires_at       timestamptz,
    count_hour       timestamp,
    expiry_published boolean     NOT NULL DEFAULT true,
    key_hash         bigint      NOT NULL
        GENERATED ALWAYS AS (risk_business_key_hash(entity_id, channel_code, direction_code)) STORED,
    PRIMARY KEY (entity_id, channel_code, direction_code, dedupe_id)
);

-- The open holds of an entity (all its channels) and of an account, by expiry: a batch finds the due
-- holds counted at its scope keys before deciding (it expires its own keys' and leaves out the others').
CREATE INDEX risk_authorization_ledger_entity_expiry_idx
    ON risk_authorization_ledger (entity_id, direction_code, expires_at)
    WHERE status = 'OPEN' AND expires_at IS NOT NULL;
CREATE INDEX risk_authorization_ledger_account_expiry_idx
    ON risk_authorization_ledger (account_id, expires_at)
    WHERE status = 'OPEN' AND expires_at IS NOT NULL AND account_id IS NOT NULL;

-- Every open hold by expiry: the sweep finds the due ones of idle keys.
CREATE INDEX risk_authorization_ledger_expiry_idx
    ON risk_authorization_ledger (expires_at)
    WHERE status = 'OPEN' AND expires_at IS NOT NULL;

-- The expiries whose decision is still to be sent.
CREATE INDEX risk_authorization_ledger_unpublished_idx
    ON risk_authorization_ledger (expires_at)
    WHERE NOT expiry_published;

-- The archiver deletes a window's ledgers with its audit rows.
CREATE INDEX risk_authorization_ledger_archive_idx ON risk_authorization_ledger (bucket_ts, key_hash);

GRANT SELECT, INSERT, UPDATE ON risk_authorization_ledger TO risk_decider;
GRANT SELECT, DELETE ON risk_authorization_ledger TO risk_archiver;

-- The time of a batch's decisions, as the last of its lock functions read it, for the rest of its
-- transaction: a batch takes out the holds due by then (HoldLedgers), and a statement compares with
-- it rather than with a clock that moves on. Null outside a batch.
CREATE FUNCTION risk_batch_decided_at()
    RETURNS timestamptz
    LANGUAGE sql
    STABLE
AS $$
    SELECT CAST(nullif(current_setting('risk.batch_decided_at', true), '') AS timestamptz)
$$;

-- As in V6, and each step now also keeps the clock it returns as the batch's decision time
-- (transaction-local, so it cannot leak to the next transaction on a pooled connection). The batch's
-- statements find their rows by key; the begin also turns sequential scans off for the rest of the
-- transaction, so a plan made while a table looked empty (a new table such as the ledgers, or one
-- whose statistics were taken between deletes) probes its keys rather than scanning it whole per row.
CREATE OR REPLACE FUNCTION risk_begin_scoped_batch_decision(
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
    PERFORM set_config('enable_seqscan', 'off', true);
    RETURN QUERY SELECT CAST(set_config('risk.batch_decided_at', CAST(clock_timestamp() AS text), true)
                             AS timestamptz);
END
$$;

CREATE OR REPLACE FUNCTION risk_lock_scope_keys(
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
    RETURN QUERY SELECT CAST(set_config('risk.batch_decided_at', CAST(clock_timestamp() AS text), true)
                             AS timestamptz);
END
$$;

GRANT EXECUTE ON FUNCTION risk_batch_decided_at() TO risk_decider;
