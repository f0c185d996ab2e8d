package io.risklimits.decision.store;

import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Tally;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A batch's writes to the hourly buckets: per scope key, what its bucket of the batch's hour gains in all
 * (what the batch counts anew there, less what it gives back to that same bucket), written once; and the
 * releases into any other bucket, each given back with the running totals of the buckets after it.
 *
 * <p>A release is folded into its key's change of this hour only when the batch read that bucket as the
 * key's latest (no bucket after it): then giving it back moves the bucket and its running totals exactly as
 * adding less does, and no later bucket carries it. A key whose changes cancel out is not written.
 *
 * @param thisHour each scope key's net change of its bucket of the batch's hour (a negative amount or count
 *     is a net release)
 * @param otherHours the releases not folded in
 */
record BucketWrites(Map<ScopeKey, Tally> thisHour, List<HourlyUsageRepository.Release> otherHours) {

    static BucketWrites of(
            Map<ScopeKey, Tally> counted,
            List<HourlyUsageRepository.Release> releases,
            Instant bucket,
            Map<ScopeKey, LatestBucket> latestBuckets) {
        Map<ScopeKey, Tally> thisHour = new LinkedHashMap<>(counted);
        List<HourlyUsageRepository.Release> otherHours = new ArrayList<>();
        for (HourlyUsageRepository.Release release : releases) {
            LatestBucket latest = latestBuckets.get(release.key());
            Tally added = thisHour.getOrDefault(release.key(), Tally.ZERO);
            // a saturated sum stands for that much or more: nothing is taken from it
            if (release.bucketTs().equals(bucket)
                    && latest != null
                    && latest.bucketTs().equals(bucket)
                    && added.amount() != Long.MAX_VALUE) {
                Tally released = release.released();
                thisHour.put(
                        release.key(), new Tally(added.amount() - released.amount(), added.count() - released.count()));
            } else {
                otherHours.add(release);
            }
        }
        thisHour.values().removeIf(Tally.ZERO::equals);
        return new BucketWrites(thisHour, otherHours);
    }
}
