package io.risklimits.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class DatabaseCeilingTest {

    @Test
    void eachBatchHoldsTheNextEventsOfOnePartitionThePartitionsInTurn() {
        TreeMap<Integer, List<String>> byPartition = new TreeMap<>(Map.of(
                7, List.of("b1", "b2", "b3", "b4", "b5"),
                2, List.of("a1", "a2", "a3"),
                9, List.of("c1")));

        assertThat(DatabaseCeiling.batchesByPartition(byPartition, 2))
                .containsExactly(
                        List.of("a1", "a2"),
                        List.of("b1", "b2"),
                        List.of("c1"),
                        List.of("a3"),
                        List.of("b3", "b4"),
                        List.of("b5"));
    }

    @Test
    void noPartitionsNoBatches() {
        assertThat(DatabaseCeiling.batchesByPartition(new TreeMap<Integer, List<String>>(), 500))
                .isEmpty();
    }
}
