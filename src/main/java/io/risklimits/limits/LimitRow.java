package io.risklimits.limits;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Limit;
import io.risklimits.decision.Window;
import java.util.UUID;

/** One row of risk_limit. channel and direction may be "*"; entityId null means any entity. */
public record LimitRow(String channel, String direction, UUID entityId, Window window, long maxAmount, long maxCount) {

    public static final String ANY = "*";

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

    Limit limit() {
        return new Limit(maxAmount, maxCount);
    }
}
