package io.risklimits.archive;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/** The signed 64-bit key-hash space cut into n disjoint, contiguous, inclusive ranges covering all of it. */
final class HashSlots {

    record Slot(int index, long first, long last) {}

    static List<Slot> of(int n) {
        BigInteger min = BigInteger.valueOf(Long.MIN_VALUE);
        BigInteger size = BigInteger.ONE.shiftLeft(64);
        List<Slot> slots = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            BigInteger first = min.add(size.multiply(BigInteger.valueOf(i)).divide(BigInteger.valueOf(n)));
            BigInteger next = min.add(size.multiply(BigInteger.valueOf(i + 1L)).divide(BigInteger.valueOf(n)));
            slots.add(new Slot(
                    i, first.longValueExact(), next.subtract(BigInteger.ONE).longValueExact()));
        }
        return List.copyOf(slots);
    }

    private HashSlots() {}
}
