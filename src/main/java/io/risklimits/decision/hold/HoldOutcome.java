package io.risklimits.decision.hold;

import io.risklimits.decision.Tally;
import io.risklimits.decision.Verdict;
import java.util.List;
import java.util.Objects;

/**
 * What one decision about an authorization's hold does: its verdict and reason, what it gives back and
 * counts anew hour by hour, and the original as it stands after it. Applying {@code expiredFirst} and
 * then {@code releases} and {@code additions} to the buckets keeps them equal to what the ledgers count.
 *
 * @param reason null unless REJECTED
 * @param releases given back, per hour, in the order released (the most recently counted part first);
 *     a tally's count is 1 in the hour the authorization's count leaves, when nothing of it is counted
 *     any more
 * @param additions counted anew, in the current hour only: an increment's amount (count 0), or a
 *     capture's excess (count 1 when it brings back the count of an authorization of which nothing was
 *     counted, or when it is a capture without an approved authorization)
 * @param captured what a capture turned from held into spent
 * @param overCaptured what a capture counted anew beyond what was held
 * @param after the original after this decision (unchanged when rejected)
 * @param expiredFirst the expiry of a hold due at the decision's instant, applied before this decision;
 *     null when none was due
 */
public record HoldOutcome(
        HoldVerdict verdict,
        HoldReason reason,
        List<HourTally> releases,
        List<HourTally> additions,
        long captured,
        long overCaptured,
        Original after,
        HoldOutcome expiredFirst) {

    public HoldOutcome {
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(after, "after");
        releases = List.copyOf(releases);
        additions = List.copyOf(additions);
        if ((verdict == HoldVerdict.REJECTED) != (reason != null)) {
            throw new IllegalArgumentException("a reason is given exactly when rejected: " + verdict + ", " + reason);
        }
    }

    static HoldOutcome rejected(HoldReason reason, Original after) {
        return new HoldOutcome(HoldVerdict.REJECTED, reason, List.of(), List.of(), 0, 0, after, null);
    }

    /** Everything this decision gives back (not counting expiredFirst's): the decision's released. */
    public Tally released() {
        return releases.stream().map(HourTally::tally).reduce(Tally.ZERO, Tally::plus);
    }

    /** Everything this decision counts anew (not counting expiredFirst's). */
    public Tally added() {
        return additions.stream().map(HourTally::tally).reduce(Tally.ZERO, Tally::plus);
    }

    /** What is still counted of the authorization after this decision; null when there is no ledger. */
    public Long remaining() {
        return after instanceof HoldLedger ledger ? ledger.counted() : null;
    }

    /** The decision this outcome is published as. */
    public Verdict publishedVerdict() {
        return Verdict.valueOf(verdict.name());
    }

    /**
     * What the follow-up reports as released: a reversal's whenever it applied, a final capture's when it
     * gave back what was still held; null otherwise.
     */
    public Tally reportedReleased() {
        return switch (verdict) {
            case RELEASED -> released();
            case CAPTURED -> releases.isEmpty() ? null : released();
            default -> null;
        };
    }

    HoldOutcome afterExpiry(HoldOutcome expiry) {
        return new HoldOutcome(verdict, reason, releases, additions, captured, overCaptured, after, expiry);
    }
}
