package io.risklimits.backtest;

import io.risklimits.limits.LimitRow;
import java.util.Comparator;
import java.util.UUID;

/**
 * The scope of a proposed limit row (channel and direction, each maybe "*", and an entity or none)
 * under which a key's flips are reported: that of the most specific proposed row matching the key.
 * {@link #UNLIMITED} groups the keys no proposed row matches.
 */
public record Scope(String channel, String direction, UUID entityId) {

    public static final Scope UNLIMITED = new Scope(null, null, null);

    /** Scopes in a stable order for reports: by channel, direction, entity; the unlimited keys last. */
    public static final Comparator<Scope> REPORT_ORDER = Comparator.comparing(Scope::isUnlimited)
            .thenComparing(Scope::channel, Comparator.nullsLast(Comparator.naturalOrder()))
            .thenComparing(Scope::direction, Comparator.nullsLast(Comparator.naturalOrder()))
            .thenComparing(Scope::entityId, Comparator.nullsFirst(Comparator.naturalOrder()));

    static Scope of(LimitRow row) {
        return new Scope(row.channel(), row.direction(), row.entityId());
    }

    public boolean isUnlimited() {
        return channel == null;
    }
}
