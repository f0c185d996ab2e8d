package io.risklimits.backtest;

import io.risklimits.decision.BusinessKey;
import java.util.List;

/**
 * The audit rows of one business key up to the end of the backtest's period, in the order they were
 * decided: those before the period give the state it starts from, those inside it are decided again.
 */
public record KeyHistory(BusinessKey key, List<AuditRow> rows) {

    public KeyHistory {
        rows = List.copyOf(rows);
    }
}
