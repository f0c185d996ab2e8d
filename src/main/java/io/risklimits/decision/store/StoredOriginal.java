package io.risklimits.decision.store;

import io.risklimits.decision.ReversalPolicy;
import java.time.Instant;

/** A reversal's original as stored: what the reversal policy needs, and the bucket it was counted in. */
record StoredOriginal(ReversalPolicy.Original original, Instant bucketTs) {

    StoredOriginal afterRelease(long amount) {
        ReversalPolicy.Original before = original;
        return new StoredOriginal(
                new ReversalPolicy.Original(
                        before.type(), before.verdict(), before.amount(), before.released() + amount),
                bucketTs);
    }
}
