package io.risklimits.backtest;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.ScopeKey;
import java.util.List;
import java.util.UUID;

/**
 * An audit row with where it belongs: its business key and the account its event carried (null for
 * none), which together say every scope key an approval of it was counted at.
 */
record ScopedRow(BusinessKey key, UUID accountId, AuditRow row) {

    /** The scope keys it counts at, in the order the scopes are checked. */
    List<ScopeKey> countedAt() {
        return ScopeKey.countedAt(key, accountId);
    }
}
