-- The archiver deletes rows past retention window by window, with a fixed fan-out of workers over
-- disjoint ranges of the 64-bit business-key hash (key_hash). The two keyed
-- tables get an index that leads with bucket_ts, so a window is one index range and the hash range is
-- checked inside the index: each worker's DELETE reads only its own window's rows. The keyless log,
-- small and without a key, is deleted by bucket_ts alone.
CREATE INDEX risk_hourly_agg_archive_idx ON risk_hourly_agg (bucket_ts, key_hash);
CREATE INDEX risk_request_log_archive_idx ON risk_request_log (bucket_ts, key_hash);
CREATE INDEX risk_keyless_request_log_bucket_idx ON risk_keyless_request_log (bucket_ts);

-- How far retention deletes have gone: every row with bucket_ts < cursor_ts is deleted in both tables.
-- It moves only after both tables are done for a window. One row at most.
CREATE TABLE risk_archive_cursor (
    singleton  boolean     PRIMARY KEY DEFAULT true CHECK (singleton),
    cursor_ts  timestamp   NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- Only one archiver runs at a time, across all instances. A lease row rather than a session advisory
-- lock, because session locks do not work behind PgBouncer in transaction mode; a crashed holder's
-- lease simply expires.
CREATE TABLE risk_archive_lease (
    singleton  boolean     PRIMARY KEY DEFAULT true CHECK (singleton),
    holder     uuid        NOT NULL,
    expires_at timestamptz NOT NULL
);

-- Archive commands already handled, for idempotency by command_id. RUNNING means a run started and
-- did not finish (a crash); the command is run again if it is redelivered.
CREATE TABLE risk_archive_command (
    command_id  uuid        PRIMARY KEY,
    status      text        NOT NULL CHECK (status IN ('RUNNING', 'COMPLETED', 'PARTIAL', 'FAILED')),
    result      jsonb,
    started_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
    finished_at timestamptz
);
