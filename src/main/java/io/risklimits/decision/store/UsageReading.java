package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Usage;
import java.util.Map;

/**
 * What one set-based read found for a batch's business keys: each key's usage per window, and its
 * latest bucket (absent for a key without buckets), which the batch's bucket write continues from.
 */
record UsageReading(Map<BusinessKey, Usage> usage, Map<BusinessKey, LatestBucket> latestBuckets) {}
