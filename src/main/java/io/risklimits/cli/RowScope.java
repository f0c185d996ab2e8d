package io.risklimits.cli;

import io.risklimits.limits.LimitRow;
import java.util.UUID;

/** The scope of risk_limit rows (channel and direction, each maybe "*", and an entity or none) as the CLI names it. */
record RowScope(String channel, String direction, UUID entityId) {

    static RowScope of(LimitRow row) {
        return new RowScope(row.channel(), row.direction(), row.entityId());
    }

    /** "channel CARD direction OUT entity *": the scope as operators read it. */
    String describe() {
        return "channel " + channel + " direction " + direction + " entity "
                + (entityId == null ? "*" : entityId.toString());
    }
}
