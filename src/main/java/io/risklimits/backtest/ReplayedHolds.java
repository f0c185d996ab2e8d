package io.risklimits.backtest;

import io.risklimits.decision.Reason;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.hold.HoldLedger;
import io.risklimits.decision.hold.HoldOutcome;
import io.risklimits.decision.hold.HoldPolicy;
import io.risklimits.decision.hold.HoldStatus;
import io.risklimits.decision.hold.HoldVerdict;
import io.risklimits.decision.hold.HourTally;
import io.risklimits.decision.hold.Original;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The decisions of a replay as a later follow-up finds them: the ledger of each approved authorization
 * (the hold policy's, so a replay counts, releases and expires as the decider does), the others as not
 * approved, and where each authorization's amounts are counted. Keeps the open holds by expiry, so a
 * hold due at a decision's instant expires before it.
 *
 * @param <I> how a decision is named: its dedupe_id, or its business key with it
 */
final class ReplayedHolds<I> {

    /** The hour buckets an authorization is counted in: adds to one (a negative amount and count take away). */
    interface Buckets {
        void add(long hour, long amount, long count);
    }

    private record Filed(Original original, Buckets countedIn) {}

    private record Due<I>(Instant expiresAt, I id) {}

    private final Map<I, Filed> filed = new HashMap<>();
    private final PriorityQueue<Due<I>> openHolds = new PriorityQueue<>(Comparator.comparing(Due::expiresAt));

    /**
     * An approved authorization, counted in its bucket: a hold when its row names an expiry (the one it
     * was held until, else the one it asked for), a final spend otherwise.
     */
    void approved(I id, AuditRow authorization, Buckets countedIn) {
        countedIn.add(authorization.bucketHour(), authorization.amount(), 1);
        Instant bucket = Instant.ofEpochSecond(Math.multiplyExact(authorization.bucketHour(), 3600));
        Instant expiresAt = authorization.holdExpiresAt() != null
                ? authorization.holdExpiresAt()
                : authorization.askedHoldExpiresAt();
        HoldLedger ledger = expiresAt == null
                ? HoldLedger.finalSpend(authorization.amount(), bucket)
                : HoldLedger.hold(authorization.amount(), bucket, expiresAt);
        file(id, new Filed(ledger, countedIn));
    }

    /** A decision that is not an approved authorization: a follow-up naming it is not approved. */
    void notApproved(I id) {
        filed.put(id, new Filed(Original.NoLedger.NOT_APPROVED, null));
    }

    /** Whether the replay has the decision: not, when it is unknown or was archived. */
    boolean has(I id) {
        return filed.containsKey(id);
    }

    /** The named decision as the hold policy takes it. */
    Original originalOf(I id) {
        Filed entry = filed.get(id);
        return entry == null ? Original.NoLedger.NOT_FOUND : entry.original();
    }

    /** The ledger of the named approved authorization; null when there is none. */
    HoldLedger ledgerOf(I id) {
        return originalOf(id) instanceof HoldLedger ledger ? ledger : null;
    }

    /** Expires every open hold due at the instant, the earliest first. */
    void expireDue(Instant now) {
        while (!openHolds.isEmpty() && !openHolds.peek().expiresAt().isAfter(now)) {
            expire(openHolds.poll().id(), now);
        }
    }

    /** The expiry of the named hold at the instant: nothing unless it is an open hold due by then. */
    void expire(I id, Instant at) {
        Filed entry = filed.get(id);
        if (entry != null) {
            HoldPolicy.expire(entry.original(), at).ifPresent(expiry -> applyTo(id, entry, expiry));
        }
    }

    /**
     * A row decided before the period, its stored outcome applied: an approval counted, an approved
     * follow-up or an expiry applied to its authorization by the hold policy (which gives what the
     * decider gave then); a rejection changes nothing.
     *
     * @param self the row's own name; target the name of the authorization it acts on (null for one)
     * @param ownBuckets where the row itself counts
     */
    void applyStored(AuditRow row, I self, I target, Buckets ownBuckets) {
        switch (row.type()) {
            case AUTHORIZATION -> {
                if (row.storedVerdict() == Verdict.APPROVED) {
                    approved(self, row, ownBuckets);
                    return;
                }
            }
            case REVERSAL -> {
                // an original no longer in the log was archived with its buckets: nothing left to release from
                if (row.storedVerdict() == Verdict.RELEASED && ledgerOf(target) != null) {
                    reverse(target, row);
                }
            }
            case CAPTURE -> capture(target, row, ownBuckets);
            case INCREMENT -> {
                if (row.storedVerdict() == Verdict.APPROVED) {
                    incrementAsStored(target, row, ownBuckets);
                }
            }
            case EXPIRY -> expire(target, row.effectiveAt());
        }
        notApproved(self);
    }

    /** A reversal of the named authorization decided again by the hold policy; its outcome applied. */
    HoldOutcome reverse(I target, AuditRow reversal) {
        HoldOutcome outcome = HoldPolicy.reverse(originalOf(target), reversal.amount(), reversal.decidedAt());
        followedUp(target, outcome, null);
        return outcome;
    }

    /**
     * A capture, never rejected, applied by the hold policy. One whose authorization the replay does not
     * have, though it was found when decided (archived since), counts what it counted anew then.
     */
    void capture(I target, AuditRow capture, Buckets ownBuckets) {
        if (!has(target)) {
            // nothing taken from a hold: the capture's own count, as for a capture without an authorization
            ownBuckets.add(capture.bucketHour(), capture.overCaptured(), capture.captured() == 0 ? 1 : 0);
            return;
        }
        followedUp(
                target,
                HoldPolicy.capture(originalOf(target), capture.amount(), capture.isFinal(), capture.decidedAt()),
                ownBuckets);
    }

    /**
     * An increment decided again by the hold policy, with the first limit it would exceed (null for none);
     * its outcome applied.
     */
    HoldOutcome increment(I target, AuditRow increment, Reason limitExceeded) {
        HoldOutcome outcome = HoldPolicy.increment(
                originalOf(target),
                increment.amount(),
                increment.decidedAt(),
                increment.askedHoldExpiresAt(),
                limitExceeded);
        followedUp(target, outcome, null);
        return outcome;
    }

    /** An approved increment as stored: applied to its hold, or, its hold archived, counted in its bucket. */
    void incrementAsStored(I target, AuditRow increment, Buckets ownBuckets) {
        if (ledgerOf(target) == null) {
            ownBuckets.add(increment.bucketHour(), increment.amount(), 0);
        } else {
            increment(target, increment, null);
        }
    }

    /**
     * A follow-up's outcome for the named authorization: the expiry it made first, then what it gives back
     * and counts anew, in the buckets its authorization is counted in (in the follow-up's own when it has no
     * ledger: a capture without an approved authorization). A rejection changes nothing else.
     */
    void followedUp(I id, HoldOutcome outcome, Buckets ownBuckets) {
        Filed entry = filed.get(id);
        if (outcome.expiredFirst() != null) {
            entry = applyTo(id, entry, outcome.expiredFirst());
        }
        if (outcome.verdict() == HoldVerdict.REJECTED) {
            return;
        }
        if (outcome.after() instanceof HoldLedger) {
            applyTo(id, entry, outcome);
        } else {
            count(ownBuckets, outcome);
        }
    }

    private Filed applyTo(I id, Filed entry, HoldOutcome outcome) {
        count(entry.countedIn(), outcome);
        Filed after = new Filed(outcome.after(), entry.countedIn());
        file(id, after);
        return after;
    }

    private void file(I id, Filed entry) {
        filed.put(id, entry);
        // a moved expiry is queued again; the earlier entry finds the hold not yet due, and leaves it
        if (entry.original() instanceof HoldLedger ledger && ledger.isHold() && ledger.status() == HoldStatus.OPEN) {
            openHolds.add(new Due<>(ledger.expiresAt(), id));
        }
    }

    private static void count(Buckets buckets, HoldOutcome outcome) {
        for (HourTally release : outcome.releases()) {
            buckets.add(
                    hourOf(release), -release.tally().amount(), -release.tally().count());
        }
        for (HourTally addition : outcome.additions()) {
            buckets.add(
                    hourOf(addition),
                    addition.tally().amount(),
                    addition.tally().count());
        }
    }

    private static long hourOf(HourTally tally) {
        return Math.floorDiv(tally.hour().getEpochSecond(), 3600);
    }
}
