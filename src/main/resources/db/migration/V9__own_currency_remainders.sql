-- What is left of an approved authorization in another currency than the limit currency, in its own
-- currency's minor units, so that its follow-ups are judged against its own amount: a reversal of more
-- than is still counted in that currency is EXCEEDS_REMAINING, and the one that leaves nothing of it
-- gives back everything still counted in the limit currency.
--   own_counted  what is still counted of it: its amount, plus approved increments, plus what captures
--                took beyond what was held, minus what reversals, an expiry and a final capture gave back
--   own_captured what captures took of it, from what was held and beyond
-- Both null for an authorization in the limit currency, whose parts and captured are in its own
-- currency already. A ledger of an authorization in another currency filed before these columns has
-- them null too: its follow-ups are judged in the limit currency, as they were when it was filed.
ALTER TABLE risk_authorization_ledger
    ADD COLUMN own_counted  bigint CHECK (own_counted >= 0),
    ADD COLUMN own_captured bigint CHECK (own_captured >= 0),
    ADD CONSTRAINT risk_authorization_ledger_own_figures_check
        CHECK ((own_counted IS NULL) = (own_captured IS NULL));
