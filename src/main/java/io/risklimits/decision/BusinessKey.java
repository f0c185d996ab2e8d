package io.risklimits.decision;

import java.util.UUID;

/** entity + payment channel + direction: the unit that limits apply to and that is locked. */
public record BusinessKey(UUID entityId, String channel, Direction direction) {

    /** The Kafka record key of the transactions and decisions topics. */
    public String recordKey() {
        return entityId + ":" + channel + ":" + direction;
    }
}
