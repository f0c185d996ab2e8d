package io.risklimits.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HashSlotsTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 7, 9, 64})
    void theSlotsAreDisjointContiguousAndCoverEveryHash(int n) {
        List<HashSlots.Slot> slots = HashSlots.of(n);

        assertThat(slots).hasSize(n);
        assertThat(slots.get(0).first()).isEqualTo(Long.MIN_VALUE);
        assertThat(slots.get(n - 1).last()).isEqualTo(Long.MAX_VALUE);
        for (int i = 1; i < n; i++) {
            assertThat(slots.get(i).first()).isEqualTo(slots.get(i - 1).last() + 1);
            assertThat(slots.get(i).first()).isLessThanOrEqualTo(slots.get(i).last());
        }
    }
}
