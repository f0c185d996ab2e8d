package io.risklimits.limits;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Limit;
import io.risklimits.decision.Window;
import java.util.UUID;

/**
 * One row of risk_limit. channel and direction may be "*"; entityId null means any entity; shadow rows
 * form the set evaluated beside the enforced one, never enforced.
 */
public record LimitRow(
        String channel, String direction, UUID entityId, Window window, long maxAmount, long maxCount, Mode mode) {

    public static final String ANY = "*";

    /** risk_limit.mode */
    public enum Mode {
        ENFORCE,
        SHADOW;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        public static Mode fromLabel(String label) {
            return valueOf(label.toUpperCase(java.util.Locale.ROOT));
        }
    }

    /** An enforced row. */
    public LimitRow(String channel, String direction, UUID entityId, Window window, long maxAmount, long maxCount) {
        this(channel, direction, entityId, window, maxAmount, maxCount, Mode.ENFORCE);
    }

    boolean matches(BusinessKey key) {
        return (entityId == null || entityId.equals(key.entityId()))
                && (channel.equals(ANY) || channel.equals(key.channel()))
                && (direction.equals(ANY) || direction.equals(key.direction().name()));
    }

    /**
     * Higher is more specific. The entity weighs most, then the channel, then the direction, so
     * entity + channel + direction beats channel + direction, which beats the "*" rows.
     */
    int specificity() {
        return (entityId != null ? 4 : 0) + (channel.equals(ANY) ? 0 : 2) + (direction.equals(ANY) ? 0 : 1);
    }

    /** The scope as operators and metrics name it: channel/direction, with "/entity" for an override. */
    public String scope() {
        return channel + "/" + direction + (entityId == null ? "" : "/entity");
    }

    /** The limit this row sets; txn's maximum count is ignored, so it has none. */
    Limit limit() {
        return new Limit(maxAmount, window.countsUsage() ? maxCount : null);
    }
}
