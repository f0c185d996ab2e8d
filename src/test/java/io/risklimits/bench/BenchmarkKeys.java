package io.risklimits.bench;

import io.risklimits.support.Events;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** A set of business keys on the benchmark's own channel, half of them IN and half OUT. */
record BenchmarkKeys(List<UUID> entityIds, List<String> directions) {

    static final String CHANNEL = "BENCH";

    static BenchmarkKeys random(int count) {
        List<UUID> entityIds = new ArrayList<>(count);
        List<String> directions = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            entityIds.add(UUID.randomUUID());
            directions.add(i % 2 == 0 ? "OUT" : "IN");
        }
        return new BenchmarkKeys(List.copyOf(entityIds), List.copyOf(directions));
    }

    int size() {
        return entityIds.size();
    }

    UUID entityId(int index) {
        return entityIds.get(index);
    }

    String direction(int index) {
        return directions.get(index);
    }

    String recordKey(int index) {
        return Events.businessKey(entityId(index), CHANNEL, direction(index));
    }
}
