package io.risklimits.backtest;

import java.util.List;

/**
 * What a backtest found: per scope of the proposed limits (the keys no row matches under
 * {@link Scope#UNLIMITED}), and the totals over all scopes (whose scope is null).
 */
public record BacktestReport(List<ScopeReport> scopes, ScopeReport totals) {

    public BacktestReport {
        scopes = List.copyOf(scopes);
    }
}
