package io.risklimits.limits;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.Limit;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Scope;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Window;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * An immutable snapshot of risk_limit that resolves the limits of a business key: for each window the
 * most specific enforced row; and, when a shadow row matches the key, the shadow set beside them: what
 * "limits promote" would leave, where a shadow row replaces the enforced row of its own scope and a
 * more specific enforced row still wins.
 */
public final class LimitTable {

    private static final int MAX_SHAPES = 4096;

    private final RowsByScope enforced;
    private final RowsByScope shadow;
    private final Set<Window> windowsInUse;
    // The limits of a scope key whose owner has no rows of its own depend on its scope, channel and
    // direction alone: resolved once per such shape and shared, so the decider's lookups (one per scope
    // key of every event) neither match the rows again nor build new maps. Part of this snapshot: a
    // change to risk_limit is seen through a new table (LimitCatalog's refresh), whose memo starts
    // empty. Bounded, since channels come from events; past the bound a shape is resolved every time.
    private final Map<Shape, Limits> byShape = new ConcurrentHashMap<>();

    private record Shape(Scope scope, String channel, Direction direction) {}

    public LimitTable(List<LimitRow> rows) {
        this.enforced = new RowsByScope(
                rows.stream().filter(row -> row.mode() == LimitRow.Mode.ENFORCE).toList());
        this.shadow = new RowsByScope(
                rows.stream().filter(row -> row.mode() == LimitRow.Mode.SHADOW).toList());
        this.windowsInUse = rows.stream()
                .map(LimitRow::window)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(Window.class)));
    }

    /** The enforced limits of the business key, with its shadow set when a shadow row matches it. */
    public Limits limitsFor(BusinessKey key) {
        return limitsFor(ScopeKey.of(key));
    }

    /** The enforced limits of the scope key, with its shadow set when a shadow row matches it. */
    public Limits limitsFor(ScopeKey key) {
        UUID owner = key.owner();
        if (enforced.hasRowsOf(owner) || shadow.hasRowsOf(owner)) {
            return resolve(key);
        }
        Shape shape = new Shape(key.scope(), key.channel(), key.direction());
        Limits limits = byShape.get(shape);
        if (limits == null) {
            limits = resolve(key);
            if (byShape.size() < MAX_SHAPES) {
                byShape.put(shape, limits);
            }
        }
        return limits;
    }

    private Limits resolve(ScopeKey key) {
        Map<Window, LimitRow> enforcedRows = enforced.winningRows(key);
        Limits limits = new Limits(limitsOf(enforcedRows));
        // resolved once per event on the decider's hot path: without shadow rows there is nothing to match
        if (shadow.isEmpty()) {
            return limits;
        }
        Map<Window, LimitRow> shadowSet = shadowSet(enforcedRows, shadow.winningRows(key));
        return shadowSet.isEmpty() ? limits : limits.withShadow(new Limits(limitsOf(shadowSet)));
    }

    /** The enforced row that wins for each window, so an operator can see where a limit comes from; absent: unlimited. */
    public Map<Window, LimitRow> winningRows(BusinessKey key) {
        return winningRows(ScopeKey.of(key));
    }

    /** The enforced row that wins for each window at the scope key; absent: unlimited. */
    public Map<Window, LimitRow> winningRows(ScopeKey key) {
        return enforced.winningRows(key);
    }

    /**
     * The row of the shadow set for each window, a shadow row or an enforced one (absent: unlimited);
     * empty when no shadow row matches the key.
     */
    public Map<Window, LimitRow> shadowSetRows(BusinessKey key) {
        return shadowSetRows(ScopeKey.of(key));
    }

    /** {@link #shadowSetRows(BusinessKey)} at the scope key. */
    public Map<Window, LimitRow> shadowSetRows(ScopeKey key) {
        return shadowSet(enforced.winningRows(key), shadow.winningRows(key));
    }

    /**
     * For each window the row that wins once every shadow row has replaced the enforced row of its own
     * scope (what limits promote does): the shadow row, unless the enforced row is more specific. For a
     * key the scopes that match it differ in specificity, so the same specificity is the same scope.
     */
    private static Map<Window, LimitRow> shadowSet(
            Map<Window, LimitRow> enforcedRows, Map<Window, LimitRow> shadowRows) {
        if (shadowRows.isEmpty()) {
            return Map.of();
        }
        Map<Window, LimitRow> shadowSet = new EnumMap<>(enforcedRows);
        shadowRows.forEach((window, shadowRow) -> shadowSet.merge(
                window,
                shadowRow,
                (enforcedRow, candidate) ->
                        enforcedRow.specificity() > candidate.specificity() ? enforcedRow : candidate));
        return shadowSet;
    }

    /** Every window with a row of either mode: what retention must cover. */
    public Set<Window> windowsInUse() {
        return windowsInUse;
    }

    private static Map<Window, Limit> limitsOf(Map<Window, LimitRow> rows) {
        Map<Window, Limit> limits = new EnumMap<>(Window.class);
        rows.forEach((window, row) -> limits.put(window, row.limit()));
        return limits;
    }

    /** The rows of one mode, with an owner's overrides found by its id. */
    private static final class RowsByScope {

        private final List<LimitRow> rowsForAnyOwner;
        private final Map<UUID, List<LimitRow>> rowsByOwner;

        RowsByScope(List<LimitRow> rows) {
            this.rowsForAnyOwner =
                    rows.stream().filter(row -> row.ownerId() == null).toList();
            this.rowsByOwner = rows.stream()
                    .filter(row -> row.ownerId() != null)
                    .collect(Collectors.groupingBy(LimitRow::ownerId));
        }

        boolean hasRowsOf(UUID owner) {
            return rowsByOwner.containsKey(owner);
        }

        boolean isEmpty() {
            return rowsForAnyOwner.isEmpty() && rowsByOwner.isEmpty();
        }

        Map<Window, LimitRow> winningRows(ScopeKey key) {
            Map<Window, LimitRow> winners = new EnumMap<>(Window.class);
            consider(rowsForAnyOwner, key, winners);
            consider(rowsByOwner.getOrDefault(key.owner(), List.of()), key, winners);
            return winners;
        }

        private static void consider(List<LimitRow> rows, ScopeKey key, Map<Window, LimitRow> winners) {
            for (LimitRow row : rows) {
                if (row.matches(key)) {
                    winners.merge(
                            row.window(),
                            row,
                            (current, candidate) ->
                                    candidate.specificity() > current.specificity() ? candidate : current);
                }
            }
        }
    }
}
