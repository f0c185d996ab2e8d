package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.ReversalPolicy;
import io.risklimits.decision.ScopeKey;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A reversal's original as stored: what the reversal policy needs, the bucket it was counted in, and the
 * account it named (null: none), which with its business key says at which scope keys it was counted.
 */
record StoredOriginal(ReversalPolicy.Original original, Instant bucketTs, UUID accountId) {

    StoredOriginal afterRelease(long amount) {
        ReversalPolicy.Original before = original;
        return new StoredOriginal(
                new ReversalPolicy.Original(
                        before.type(), before.verdict(), before.amount(), before.released() + amount),
                bucketTs,
                accountId);
    }

    /** The scope keys the original was counted at, where a release of it is given back. */
    List<ScopeKey> countedAt(BusinessKey key) {
        return ScopeKey.countedAt(key, accountId);
    }
}
