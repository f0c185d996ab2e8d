package io.risklimits.backtest;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.WindowCalendar;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A backtest in progress, without I/O: takes the keys' histories one at a time (each replayed by
 * {@link KeyReplay} under the proposed limits), or, when a proposed row limits an entity or an
 * account, every key's rows together in decision order ({@link ScopedReplay}), and adds up what
 * changed per scope.
 */
public final class Backtest {

    private final ProposedLimits limits;
    private final WindowStartHours windowStarts;
    private final Map<Scope, ScopeReport> byScope = new HashMap<>();

    /** @param calendar the service's calendar: where its day, week and month windows start */
    public Backtest(ProposedLimits limits, WindowCalendar calendar) {
        this.limits = limits;
        this.windowStarts = new WindowStartHours(calendar);
    }

    /** Replays one key's history (its rows up to the period's end, in decided order). */
    public void replay(KeyHistory history) {
        BusinessKey key = history.key();
        Scope scope = limits.scopeOf(key);
        ScopeReport keyReport = KeyReplay.replay(history, limits.limitsFor(key), scope, windowStarts);
        byScope.merge(scope, keyReport, ScopeReport::plus);
    }

    /** A replay of every key's rows together, in the order they were decided, over the given hour buckets. */
    ScopedReplay replayTogether(long firstHour, long lastHour) {
        return new ScopedReplay(limits, windowStarts, firstHour, lastHour);
    }

    /** Adds what a replay of keys together changed. */
    void add(List<ScopeReport> reports) {
        reports.forEach(report -> byScope.merge(report.scope(), report, ScopeReport::plus));
    }

    /** What changed so far: per scope in {@link Scope#REPORT_ORDER}, and in total. */
    public BacktestReport report() {
        List<ScopeReport> scopes = byScope.values().stream()
                .sorted((one, other) -> Scope.REPORT_ORDER.compare(one.scope(), other.scope()))
                .toList();
        ScopeReport totals = ScopeReport.empty(null);
        for (ScopeReport scope : scopes) {
            totals = totals.plus(scope);
        }
        return new BacktestReport(scopes, totals);
    }
}
