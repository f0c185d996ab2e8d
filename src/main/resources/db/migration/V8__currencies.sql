-- Currencies of contract v3: events in any ISO 4217 currency with a rate, counted in the limit currency
-- (risk.currency).
--
-- The rates: how many units of the limit currency one unit of currency is worth, from valid_from on. A
-- decision converts at the latest rate not after it; operators maintain the table (the CLI's rates
-- commands, or SQL) as its owner, the decider only reads it.
CREATE TABLE risk_fx_rate (
    currency   text          NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    rate       numeric       NOT NULL CHECK (rate > 0),
    valid_from timestamptz   NOT NULL,
    PRIMARY KEY (currency, valid_from)
);

-- every process reads the rates, as it reads the limits (FxRateCatalog loads them at start)
GRANT SELECT ON risk_fx_rate TO risk_decider, risk_archiver;

-- The conversion a decision made, so that a replay publishes it as first published and a follow-up is
-- converted at its original's rate: null for an event in the limit currency.
ALTER TABLE risk_request_log
    ADD COLUMN counted_amount bigint,       -- what it counted, or gave back, in the limit currency's minor units
    ADD COLUMN fx_currency    text,         -- the limit currency it was converted to
    ADD COLUMN fx_rate        numeric,      -- the rate: limit-currency units per unit of its currency
    ADD COLUMN fx_valid_from  timestamptz;  -- when that rate became valid
