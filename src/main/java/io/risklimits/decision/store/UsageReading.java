package io.risklimits.decision.store;

import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Usage;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What one set-based read found for a batch's scope keys: each key's usage per window, and its
 * latest bucket (absent for a key without buckets), which the batch's bucket write continues from.
 *
 * @param unread the keys whose usage was not read, no limit checking it: their usage is {@link Usage#NONE},
 *     and every window of theirs held less than {@link #UNREAD_BELOW} when read
 */
record UsageReading(Map<ScopeKey, Usage> usage, Map<ScopeKey, LatestBucket> latestBuckets, Set<ScopeKey> unread) {

    /**
     * A key's usage is left unread only while its latest running total, which no window's usage exceeds,
     * is below this: half the long range, so that a batch can tell whether what it adds could take a
     * window to the end of the range, where a window without a limit rejects (docs/contract.md, "Limits").
     */
    static final long UNREAD_BELOW = Long.MAX_VALUE / 2;

    static final UsageReading NOTHING = new UsageReading(Map.of(), Map.of(), Set.of());

    /** This reading and another of other keys, together. */
    UsageReading and(UsageReading other) {
        Map<ScopeKey, Usage> allUsage = new HashMap<>(usage);
        allUsage.putAll(other.usage());
        Map<ScopeKey, LatestBucket> allLatest = new HashMap<>(latestBuckets);
        allLatest.putAll(other.latestBuckets());
        Set<ScopeKey> allUnread = new HashSet<>(unread);
        allUnread.addAll(other.unread());
        return new UsageReading(allUsage, allLatest, allUnread);
    }
}
