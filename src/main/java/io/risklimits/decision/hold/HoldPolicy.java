package io.risklimits.decision.hold;

import io.risklimits.decision.Reason;
import io.risklimits.decision.Tally;
import io.risklimits.decision.hold.HoldReason.HoldRule;
import io.risklimits.decision.hold.HoldReason.LimitExceeded;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The rules of an authorization's life as a hold, free of I/O: what a reversal, an increment, a capture
 * and an expiry do to what is counted of it, hour by hour.
 *
 * <p>Every follow-up is decided at an instant, and a decision made at or after a hold's expiresAt never
 * counts it as open: an open hold due at that instant expires first (the outcome's expiredFirst), then
 * the follow-up is decided against the expired hold. So a capture at the expiry instant is never
 * captured from the hold: the hold expires, and the capture is counted anew as a late capture.
 */
public final class HoldPolicy {

    private HoldPolicy() {}

    /** A reversal of an original in the limit currency: {@link #reverse(Original, long, long, Instant)}. */
    public static HoldOutcome reverse(Original original, long amount, Instant now) {
        return reverse(original, amount, amount, now);
    }

    /**
     * A reversal, by the rules of version 2 against what is still counted: released from the most
     * recently counted part first (what is held before what was captured); more than is still counted is
     * EXCEEDS_REMAINING. A reversal consumes no limit and is never rejected for one. The one that leaves
     * nothing counted releases the count, and closes an open hold as RELEASED.
     *
     * <p>Of an authorization in another currency, ownAmount (the reversal's own amount) is judged against
     * what is still counted in that currency, and amount (what it converts to) is given back; the reversal
     * that leaves nothing of it in its own currency gives back everything still counted, and none gives
     * back more than is still counted.
     */
    public static HoldOutcome reverse(Original original, long amount, long ownAmount, Instant now) {
        HoldOutcome expiry = dueExpiry(original, now);
        Original current = expiry == null ? original : expiry.after();
        return reverseUnexpired(current, amount, ownAmount).afterExpiry(expiry);
    }

    /**
     * An incremental authorization. Admissible only for an open hold; the limit check is the caller's,
     * made against {@link HoldLedger#authorized()} plus the amount for the txn cap, and is reported only
     * for an admissible increment. Approved, it is counted in the current hour (no count: the
     * authorization is counted already) and the hold grows by it.
     *
     * @param expiresAt the increment's hold_expires_at, which moves the expiry; null keeps it
     * @param limitExceeded the first limit the caller found the increment would exceed; null when the limits
     *     admit it
     */
    public static HoldOutcome increment(
            Original original, long amount, Instant now, Instant expiresAt, Reason limitExceeded) {
        return increment(original, amount, amount, now, expiresAt, limitExceeded);
    }

    /**
     * An increment of amount (in the limit currency) whose own amount, in its original's currency, is
     * ownAmount: as {@link #increment(Original, long, Instant, Instant, Reason)}, and what is counted of
     * an authorization in another currency grows by ownAmount in its own currency.
     */
    public static HoldOutcome increment(
            Original original, long amount, long ownAmount, Instant now, Instant expiresAt, Reason limitExceeded) {
        HoldOutcome expiry = dueExpiry(original, now);
        Original current = expiry == null ? original : expiry.after();
        return incrementUnexpired(current, amount, ownAmount, now, expiresAt, limitExceeded)
                .afterExpiry(expiry);
    }

    /**
     * A capture, never rejected: the money has moved. Up to what is held it turns held into captured;
     * the excess (everything, when nothing is held: the hold closed, a final spend, or no approved
     * authorization at all) is over-captured, counted anew in the current hour, with the count when
     * nothing of the authorization was counted. A final capture then releases what the hold still holds
     * and closes it as CAPTURED; a non-final one leaves it held for later captures.
     */
    public static HoldOutcome capture(Original original, long amount, boolean isFinal, Instant now) {
        return capture(original, amount, amount, isFinal, now);
    }

    /**
     * A capture of amount (in the limit currency) whose own amount, in its original's currency, is
     * ownAmount: as {@link #capture(Original, long, boolean, Instant)} in the limit currency; of an
     * authorization in another currency, what captures took grows by ownAmount and what is counted by
     * the part of ownAmount beyond what is held, in its own currency.
     */
    public static HoldOutcome capture(Original original, long amount, long ownAmount, boolean isFinal, Instant now) {
        HoldOutcome expiry = dueExpiry(original, now);
        Original current = expiry == null ? original : expiry.after();
        return captureUnexpired(current, amount, ownAmount, isFinal, now).afterExpiry(expiry);
    }

    /** A follow-up refused before its original's rules apply (its amount could not be counted): nothing changes. */
    public static HoldOutcome refused(Original original, HoldRule rule) {
        return HoldOutcome.rejected(rule, original);
    }

    /**
     * The expiry of an open hold at or after its expiresAt: what it still holds is released, the most
     * recently counted part first (and the count, when nothing is counted any more), and it closes as
     * EXPIRED, also when it holds nothing any more. Nothing for a hold not yet due, a closed hold, a
     * final spend or no ledger; so it is idempotent.
     */
    public static Optional<HoldOutcome> expire(Original original, Instant now) {
        return Optional.ofNullable(dueExpiry(original, now));
    }

    private static HoldOutcome dueExpiry(Original original, Instant now) {
        if (!(original instanceof HoldLedger ledger) || !ledger.isDueAt(now)) {
            return null;
        }
        Release release = Release.of(ledger, ledger.held(), ledger.ownHeld());
        HoldLedger after = release.after().withStatus(HoldStatus.EXPIRED);
        return new HoldOutcome(HoldVerdict.EXPIRED, null, release.hours(), List.of(), 0, 0, after, null);
    }

    private static HoldOutcome reverseUnexpired(Original original, long amount, long ownAmount) {
        if (!(original instanceof HoldLedger ledger)) {
            return HoldOutcome.rejected(ruleOf((Original.NoLedger) original), original);
        }
        long own = ledger.own() == null ? amount : ownAmount;
        if (own > ledger.ownCounted()) {
            return HoldOutcome.rejected(HoldRule.EXCEEDS_REMAINING, ledger);
        }
        long released = own == ledger.ownCounted() ? ledger.counted() : Math.min(amount, ledger.counted());
        Release release = Release.of(ledger, released, own);
        HoldLedger after = release.after();
        if (after.counted() == 0 && after.status() == HoldStatus.OPEN) {
            after = after.withStatus(HoldStatus.RELEASED);
        }
        return new HoldOutcome(HoldVerdict.RELEASED, null, release.hours(), List.of(), 0, 0, after, null);
    }

    private static HoldOutcome incrementUnexpired(
            Original original, long amount, long ownAmount, Instant now, Instant expiresAt, Reason limitExceeded) {
        if (!(original instanceof HoldLedger ledger)) {
            return HoldOutcome.rejected(ruleOf((Original.NoLedger) original), original);
        }
        if (!ledger.isHold()) {
            return HoldOutcome.rejected(HoldRule.ORIGINAL_NOT_APPROVED, ledger);
        }
        if (ledger.status() != HoldStatus.OPEN) {
            return HoldOutcome.rejected(HoldRule.HOLD_CLOSED, ledger);
        }
        if (limitExceeded != null) {
            return HoldOutcome.rejected(new LimitExceeded(limitExceeded), ledger);
        }
        Instant hour = HourTally.hourOf(now);
        // an open hold counts something, so the count is there already; were it not, it comes back here
        long count = ledger.counted() == 0 ? 1 : 0;
        HoldLedger after = ledger.count(PartKind.INCREMENT, hour, amount).withOwnMoved(ownAmount, 0);
        if (expiresAt != null) {
            after = after.withExpiresAt(expiresAt);
        }
        List<HourTally> additions = List.of(new HourTally(hour, new Tally(amount, count)));
        return new HoldOutcome(HoldVerdict.APPROVED, null, List.of(), additions, 0, 0, after, null);
    }

    private static HoldOutcome captureUnexpired(
            Original original, long amount, long ownAmount, boolean isFinal, Instant now) {
        Instant hour = HourTally.hourOf(now);
        if (!(original instanceof HoldLedger ledger)) {
            // a capture without an approved authorization: a spend of its own, with its own count
            List<HourTally> additions = List.of(new HourTally(hour, new Tally(amount, 1)));
            return new HoldOutcome(HoldVerdict.CAPTURED, null, List.of(), additions, 0, amount, original, null);
        }
        long fromHeld = Math.min(amount, ledger.held());
        long overCaptured = amount - fromHeld;
        HoldLedger after = ledger.withCaptured(Math.addExact(ledger.captured(), amount))
                .withOwnMoved(Math.max(0, ownAmount - ledger.ownHeld()), ownAmount);
        List<HourTally> additions = List.of();
        if (overCaptured > 0) {
            additions = List.of(new HourTally(hour, new Tally(overCaptured, ledger.counted() == 0 ? 1 : 0)));
            after = after.count(PartKind.OVER_CAPTURE, hour, overCaptured);
        }
        List<HourTally> releases = List.of();
        if (isFinal && after.isHold() && after.status() == HoldStatus.OPEN) {
            Release release = Release.of(after, after.held(), after.ownHeld());
            releases = release.hours();
            after = release.after().withStatus(HoldStatus.CAPTURED);
        }
        return new HoldOutcome(HoldVerdict.CAPTURED, null, releases, additions, fromHeld, overCaptured, after, null);
    }

    private static HoldRule ruleOf(Original.NoLedger original) {
        return original == Original.NoLedger.NOT_FOUND ? HoldRule.ORIGINAL_NOT_FOUND : HoldRule.ORIGINAL_NOT_APPROVED;
    }
}
