package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Conversion;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.hold.HoldLedger;
import io.risklimits.decision.hold.Original;
import java.util.List;
import java.util.UUID;

/**
 * A follow-up's original as stored under its business key: what the hold policy needs (its ledger, or
 * why there is none), the account it named (null: none), which with its business key says at which scope
 * keys it was counted, and its amount and currency, which an expiry of it echoes; conversion, the rate
 * it was counted at when its currency is not the limit currency (null otherwise), which its follow-ups are
 * converted at. ledgerStored says whether its ledger is a row of risk_authorization_ledger already (false for
 * one known from the audit log alone, and for one decided in the batch): the batch updates that row, or
 * inserts one.
 */
record StoredOriginal(
        Original original, UUID accountId, long amount, String currency, Conversion conversion, boolean ledgerStored) {

    /** An event decided in the batch that is not an approved authorization. */
    static final StoredOriginal NOT_APPROVED =
            new StoredOriginal(Original.NoLedger.NOT_APPROVED, null, 0, null, null, false);

    /**
     * An authorization approved now, with the ledger it was counted with; one in another currency keeps
     * its own amount beside it.
     */
    static StoredOriginal approved(HoldLedger ledger, TransactionEvent event, Conversion conversion) {
        HoldLedger counted = conversion == null ? ledger : ledger.inOwnCurrency(event.amount());
        return new StoredOriginal(counted, event.accountId(), event.amount(), event.currency(), conversion, false);
    }

    /** The same original as a follow-up or an expiry left it. */
    StoredOriginal with(Original after) {
        return new StoredOriginal(after, accountId, amount, currency, conversion, ledgerStored);
    }

    /** The ledger of an approved authorization; null when there is none. */
    HoldLedger ledger() {
        return original instanceof HoldLedger ledger ? ledger : null;
    }

    /** The scope keys the original was counted at, where a release of it is given back. */
    List<ScopeKey> countedAt(BusinessKey key) {
        return ScopeKey.countedAt(key, accountId);
    }
}
