-- The decider's tables. Table and column names of the seed design are kept so operators can
-- query them; every added column has a default or is derived.

-- 64-bit hash of the business key, seeded with this product's namespace. It is the advisory lock
-- key of the decider (pg_advisory_xact_lock) and is stored on the rows so that the archiver can
-- split its deletes into disjoint hash ranges.
CREATE FUNCTION risk_business_key_hash(entity_id uuid, channel_code text, direction_code text)
    RETURNS bigint
    LANGUAGE sql
    IMMUTABLE
    PARALLEL SAFE
AS $$
    SELECT hashtextextended(entity_id::text || ':' || channel_code || ':' || direction_code,
                            7236492873190001)  -- namespace: 'risk-limits business key', version 1
$$;

-- Hourly usage per business key. bucket_ts is the UTC hour of the database clock at decision time.
CREATE TABLE risk_hourly_agg (
    entity_id      uuid      NOT NULL,
    channel_code   text      NOT NULL,
    direction_code text      NOT NULL,
    bucket_ts      timestamp NOT NULL,
    sum_amount     bigint    NOT NULL CHECK (sum_amount >= 0),
    tx_count       integer   NOT NULL CHECK (tx_count >= 0),
    key_hash       bigint    NOT NULL
        GENERATED ALWAYS AS (risk_business_key_hash(entity_id, channel_code, direction_code)) STORED,
    PRIMARY KEY (entity_id, channel_code, direction_code, bucket_ts)
);

-- The request log is also the audit log: one row per dedupe_id per business key, holding the
-- decision and everything it was based on. A replayed event is answered from this row.
CREATE TABLE risk_request_log (
    entity_id      uuid        NOT NULL,
    channel_code   text        NOT NULL,
    direction_code text        NOT NULL,
    dedupe_id      uuid        NOT NULL,
    bucket_ts      timestamp   NOT NULL,
    decision       text        NOT NULL CHECK (decision IN ('APPROVED', 'REJECTED', 'INVALID')),
    reason         text,
    amount         bigint,                -- null only for an INVALID event whose amount was unusable
    currency       text,
    occurred_at    timestamptz,
    usage          jsonb,                 -- usage before this event; null for INVALID
    limits         jsonb,                 -- limits applied; null for INVALID
    errors         jsonb,                 -- validation errors; INVALID only
    decided_at     timestamptz NOT NULL,
    key_hash       bigint      NOT NULL
        GENERATED ALWAYS AS (risk_business_key_hash(entity_id, channel_code, direction_code)) STORED,
    PRIMARY KEY (entity_id, channel_code, direction_code, dedupe_id)
);

CREATE INDEX risk_request_log_bucket_idx ON risk_request_log (bucket_ts);

-- INVALID events whose business key itself could not be read (bad entity_id, channel or
-- direction): they cannot be filed under a key, so they are deduplicated by dedupe_id alone.
-- The echoed fields hold the values that passed validation, null for the others.
CREATE TABLE risk_keyless_request_log (
    dedupe_id      uuid        PRIMARY KEY,
    entity_id      uuid,
    channel_code   text,
    direction_code text,
    amount         bigint,
    currency       text,
    occurred_at    timestamptz,
    errors         jsonb       NOT NULL,
    bucket_ts      timestamp   NOT NULL,
    decided_at     timestamptz NOT NULL
);

CREATE INDEX risk_keyless_request_log_bucket_idx ON risk_keyless_request_log (bucket_ts);

-- Limits per scope and window; for each window the most specific matching row wins.
CREATE TABLE risk_limit (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel     text        NOT NULL CHECK (channel = '*' OR channel ~ '^[A-Z0-9_]{1,32}$'),
    direction   text        NOT NULL CHECK (direction IN ('IN', 'OUT', '*')),
    entity_id   uuid,
    window_name text        NOT NULL CHECK (window_name IN ('24h', '7d', '30d')),
    max_amount  bigint      NOT NULL CHECK (max_amount >= 0),
    max_count   bigint      NOT NULL CHECK (max_count >= 0),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

-- One row per scope and window; an absent entity counts as one scope (PostgreSQL 14 has no
-- UNIQUE NULLS NOT DISTINCT, hence the coalesce).
CREATE UNIQUE INDEX risk_limit_scope_idx ON risk_limit (
    channel, direction, coalesce(entity_id, '00000000-0000-0000-0000-000000000000'::uuid), window_name);

INSERT INTO risk_limit (channel, direction, entity_id, window_name, max_amount, max_count)
VALUES ('*', '*', NULL, '24h', 1000000, 100),
       ('*', '*', NULL, '7d', 5000000, 500),
       ('*', '*', NULL, '30d', 20000000, 2000);
