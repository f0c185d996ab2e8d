-- Least privilege for the running service. Migrations run as the schema owner
-- (spring.flyway.user); the service logs in as a role that is a member of one or both groups:
--
--   risk_decider   reads limits, locks business keys, records decisions and usage: no DELETE, no DDL
--   risk_archiver  deletes past retention, keeps its cursor, lease and command log: no INSERT of decisions
--
-- A process with risk.roles=decider,archiver (the default) logs in as a member of both; separate
-- deployments (risk.roles=decider, risk.roles=archiver) each log in as a member of one.
--
-- The groups are NOLOGIN and created here when missing, so the embedded default and a fresh database
-- need no bootstrap step. That needs CREATEROLE only the first time: where the migrating role may not
-- create roles, a DBA creates the two groups beforehand (docs/security.md, "Database roles") and this migration
-- only grants. Roles are cluster-wide: databases of one cluster share these two groups.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'risk_decider') THEN
        CREATE ROLE risk_decider NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'risk_archiver') THEN
        CREATE ROLE risk_archiver NOLOGIN;
    END IF;
END
$$;

-- Before PostgreSQL 15 every role may create tables in the public schema; no runtime role may.
-- (A no-op on 15 and later, and only a warning where the migrating role does not own the schema.)
DO $$
BEGIN
    EXECUTE format('REVOKE CREATE ON SCHEMA %I FROM PUBLIC', current_schema());
    EXECUTE format('GRANT USAGE ON SCHEMA %I TO risk_decider, risk_archiver', current_schema());
END
$$;

-- Every process reads the limits (LimitCatalog loads them at start).
GRANT SELECT ON risk_limit TO risk_decider, risk_archiver;

-- The decider: the advisory lock and the hash, the start of a batched decision, the running totals
-- (their triggers UPDATE later buckets), the audit log and the log of INVALID events without a
-- business key. Nothing it does deletes.
GRANT SELECT, INSERT, UPDATE ON risk_hourly_agg TO risk_decider;
GRANT SELECT, INSERT ON risk_request_log, risk_keyless_request_log TO risk_decider;
GRANT EXECUTE ON FUNCTION risk_business_key_hash(uuid, text, text),
                          risk_lock_business_keys(uuid[], text[], text[]),
                          risk_begin_batch_decision(uuid[], text[], text[])
    TO risk_decider;

-- The archiver: the only role that deletes decisions and usage, and only what is past retention
-- (enforced by the code, not by the grant). The lease row is taken, renewed and released.
GRANT SELECT, DELETE ON risk_hourly_agg, risk_request_log, risk_keyless_request_log TO risk_archiver;
GRANT SELECT, INSERT, UPDATE ON risk_archive_cursor, risk_archive_command TO risk_archiver;
GRANT SELECT, INSERT, UPDATE, DELETE ON risk_archive_lease TO risk_archiver;
GRANT EXECUTE ON FUNCTION risk_business_key_hash(uuid, text, text) TO risk_archiver;
