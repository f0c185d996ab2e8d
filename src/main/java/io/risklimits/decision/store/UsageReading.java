package io.risklimits.decision.store;

import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Usage;
import java.util.HashMap;
import java.util.Map;

/**
 * What one set-based read found for a batch's scope keys: each key's usage per window, and its
 * latest bucket (absent for a key without buckets), which the batch's bucket write continues from.
 */
record UsageReading(Map<ScopeKey, Usage> usage, Map<ScopeKey, LatestBucket> latestBuckets) {

    /** This reading and another of other keys, together. */
    UsageReading and(UsageReading other) {
        Map<ScopeKey, Usage> allUsage = new HashMap<>(usage);
        allUsage.putAll(other.usage());
        Map<ScopeKey, LatestBucket> allLatest = new HashMap<>(latestBuckets);
        allLatest.putAll(other.latestBuckets());
        return new UsageReading(allUsage, allLatest);
    }
}
