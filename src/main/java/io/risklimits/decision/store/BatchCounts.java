package io.risklimits.decision.store;

import io.risklimits.decision.Limits;
import io.risklimits.decision.ScopeCheck;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Tally;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Window;
import io.risklimits.decision.WindowCalendar;
import io.risklimits.decision.hold.HoldOutcome;
import io.risklimits.decision.hold.HourTally;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * What a batch counts as it decides in order: the usage of each scope key it read (before the next event),
 * what it counts anew per scope key in the current hour, and what it gives back to which hour. Usage moves
 * with every addition and release, so an event sees the effect of every event before it in the batch.
 */
final class BatchCounts {

    private final Instant bucket;
    private final WindowCalendar calendar;
    private final Map<Window, Instant> resets;
    private final Map<ScopeKey, Usage> usage;
    private final Set<ScopeKey> unread;
    private final Map<ScopeKey, Tally> counted = new LinkedHashMap<>();
    private final List<HourlyUsageRepository.Release> releases = new ArrayList<>();

    // every usage a decision reports carries when its calendar windows start again, the same for the whole batch
    // unread: the scope keys whose usage was not read (UsageReading), each with a usage of none
    BatchCounts(Instant bucket, WindowCalendar calendar, Map<ScopeKey, Usage> usage, Set<ScopeKey> unread) {
        this.bucket = bucket;
        this.unread = unread;
        this.calendar = calendar;
        this.resets = calendar.resetsAfter(bucket);
        this.usage = new HashMap<>();
        usage.forEach((key, read) -> this.usage.put(key, read.withResets(resets)));
    }

    /** The scope key's usage now; none when the batch did not read it. */
    Usage usageOf(ScopeKey key) {
        Usage now = usage.get(key);
        return now == null ? Usage.NONE.withResets(resets) : now;
    }

    /**
     * The usage now and the limits of each scope key, in their order, as a decision checks this amount
     * against them. A scope key whose usage was not read has no limit on a window of usage, and held less
     * than half the long range in every window when read; its usage is what the batch added there. Should
     * that and the amount come to half the long range, a window might reach the end of the range, which
     * rejects with or without a limit: then {@link UsageUnread}, and the batch reads the key's usage.
     */
    List<ScopeCheck> checksAt(List<ScopeKey> scopeKeys, Function<ScopeKey, Limits> limitsOf, long amount) {
        List<ScopeCheck> checks = new ArrayList<>(scopeKeys.size());
        for (ScopeKey key : scopeKeys) {
            Usage now = usageOf(key);
            if (unread.contains(key) && !belowHalfTheLongRange(now, amount)) {
                throw new UsageUnread(key);
            }
            checks.add(new ScopeCheck(key.scope(), now, limitsOf.apply(key)));
        }
        return checks;
    }

    private static boolean belowHalfTheLongRange(Usage added, long amount) {
        for (Tally tally : added.byWindow().values()) {
            if (amount >= UsageReading.UNREAD_BELOW - tally.amount()) {
                return false;
            }
        }
        return true;
    }

    /** An approved authorization of this amount, counted at the scope key whose usage was this. */
    void countAuthorization(ScopeKey key, Usage before, long amount) {
        usage.put(key, before.plus(amount));
        counted.merge(key, Tally.ZERO.plus(amount), Tally::plus);
    }

    /** A decision's releases and additions, at each scope key its authorization counts at. */
    void apply(HoldOutcome outcome, List<ScopeKey> countedAt) {
        outcome.releases().forEach(release -> release(release, countedAt));
        outcome.additions().forEach(addition -> add(addition, countedAt));
    }

    /** Counted anew in the current hour at each of these scope keys. */
    void add(HourTally addition, List<ScopeKey> countedAt) {
        for (ScopeKey key : countedAt) {
            usage.computeIfPresent(key, (scopeKey, held) -> held.plus(addition.tally()));
            counted.merge(key, addition.tally(), Tally::plus);
        }
    }

    /** Given back to its hour at each of these scope keys. */
    void release(HourTally release, List<ScopeKey> countedAt) {
        leaveOut(release, countedAt);
        for (ScopeKey key : countedAt) {
            releases.add(new HourlyUsageRepository.Release(key, release.hour(), release.tally()));
        }
    }

    /**
     * Left out of the usage the batch decides with at each of these scope keys it read, without giving it
     * back: what another key's batch or the sweep gives back once it holds that key's lock.
     */
    void leaveOut(HourTally release, List<ScopeKey> countedAt) {
        for (ScopeKey key : countedAt) {
            usage.computeIfPresent(
                    key, (scopeKey, held) -> held.minus(release.tally(), release.hour(), bucket, calendar));
        }
    }

    /** What the batch counts anew per scope key, in the current hour. */
    Map<ScopeKey, Tally> counted() {
        return counted;
    }

    /** What the batch gives back, per scope key and hour. */
    List<HourlyUsageRepository.Release> releases() {
        return releases;
    }
}
