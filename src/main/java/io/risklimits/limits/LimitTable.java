package io.risklimits.limits;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Limit;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Window;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/** An immutable snapshot of risk_limit that resolves the limits of a business key. */
public final class LimitTable {

    private final List<LimitRow> rowsForAnyEntity;
    private final Map<UUID, List<LimitRow>> rowsByEntity;

    public LimitTable(List<LimitRow> rows) {
        this.rowsForAnyEntity =
                rows.stream().filter(row -> row.entityId() == null).toList();
        this.rowsByEntity =
                rows.stream().filter(row -> row.entityId() != null).collect(Collectors.groupingBy(LimitRow::entityId));
    }

    /** For each window the most specific matching row wins; a window with no matching row is unlimited. */
    public Limits limitsFor(BusinessKey key) {
        Map<Window, Limit> limits = new EnumMap<>(Window.class);
        winningRows(key).forEach((window, row) -> limits.put(window, row.limit()));
        return new Limits(limits);
    }

    /** The row that wins for each window, so an operator can see where a limit comes from; absent: unlimited. */
    public Map<Window, LimitRow> winningRows(BusinessKey key) {
        Map<Window, LimitRow> winners = new EnumMap<>(Window.class);
        consider(rowsForAnyEntity, key, winners);
        consider(rowsByEntity.getOrDefault(key.entityId(), List.of()), key, winners);
        return winners;
    }

    private static void consider(List<LimitRow> rows, BusinessKey key, Map<Window, LimitRow> winners) {
        for (LimitRow row : rows) {
            if (row.matches(key)) {
                winners.merge(
                        row.window(),
                        row,
                        (current, candidate) -> candidate.specificity() > current.specificity() ? candidate : current);
            }
        }
    }
}
