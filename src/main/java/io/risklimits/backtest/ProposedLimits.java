package io.risklimits.backtest;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Limits;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Window;
import io.risklimits.limits.LimitRow;
import io.risklimits.limits.LimitTable;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The limits a backtest tries: enforced rows resolved as the service resolves risk_limit (for each
 * window the most specific matching row, {@link LimitTable}), and the scope each key is reported under.
 */
public final class ProposedLimits {

    private final LimitTable table;
    private final int rowCount;
    private final boolean scopeRows;

    /** @throws IllegalArgumentException for a shadow row: a backtest tries enforced limits only */
    public ProposedLimits(List<LimitRow> rows) {
        if (rows.stream().anyMatch(row -> row.mode() != LimitRow.Mode.ENFORCE)) {
            throw new IllegalArgumentException("proposed limits are enforced rows only");
        }
        this.table = new LimitTable(rows);
        this.rowCount = rows.size();
        this.scopeRows = rows.stream().anyMatch(row -> row.scope() != io.risklimits.decision.Scope.KEY);
    }

    /**
     * Whether a row limits a scope other than the business key's: then keys that share an entity or an
     * account are replayed together, in the order they were decided.
     */
    public boolean hasScopeRows() {
        return scopeRows;
    }

    public int rowCount() {
        return rowCount;
    }

    /** Every window a proposed row limits: the windows whose usage the replay must start from. */
    public Set<Window> windowsInUse() {
        return table.windowsInUse();
    }

    Limits limitsFor(BusinessKey key) {
        return table.limitsFor(key);
    }

    /** The proposed limits of a scope key, resolved as the service resolves them. */
    Limits limitsFor(ScopeKey key) {
        return table.limitsFor(key);
    }

    /** The scope of the most specific proposed row that matches the key, else {@link Scope#UNLIMITED}. */
    Scope scopeOf(BusinessKey key) {
        return table.winningRows(key).values().stream()
                .max(Comparator.comparingInt(ProposedLimits::specificity))
                .map(Scope::of)
                .orElse(Scope.UNLIMITED);
    }

    // the weights of LimitRow's own specificity: the entity most, then the channel, then the direction;
    // two rows of equal weight that match one key have the same scope
    private static int specificity(LimitRow row) {
        return (row.entityId() != null ? 4 : 0)
                + (row.channel().equals(LimitRow.ANY) ? 0 : 2)
                + (row.direction().equals(LimitRow.ANY) ? 0 : 1);
    }
}
