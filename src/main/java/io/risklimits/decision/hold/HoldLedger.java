package io.risklimits.decision.hold;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What is counted of one approved authorization, hour by hour: its counted parts (the authorization,
 * then each approved increment and each over-capture, in the order they were counted), what was
 * released from each, what was captured, where its hold stands and when it expires.
 *
 * <p>Guarantees, checked on construction: the first part, and only it, is the authorization; what is
 * still counted is {@code amount + increments + overCaptured - released >= 0}, no part below zero;
 * {@code countHour} (the hour whose bucket holds the authorization's count of 1) is present exactly
 * when something is still counted; a final spend ({@code expiresAt} null) is never CAPTURED or EXPIRED;
 * own figures, when present, are not below zero.
 *
 * <p>Every figure but own is in the limit currency. An authorization in another currency also keeps
 * what is still counted of it and what captures took, in its own currency's minor units (own): its
 * follow-ups are judged against those, and the limit-currency figures move by what they convert to.
 *
 * @param captured everything captures took of it, from what was held and beyond it
 * @param expiresAt when the hold expires; null for a final spend, which never does
 * @param countHour the hour bucket its count of 1 is in; null when nothing of it is counted any more
 * @param own what is counted and captured of it in its own currency; null for an authorization in the
 *     limit currency, whose own figures are the limit-currency ones
 */
public record HoldLedger(
        List<CountedPart> parts,
        long captured,
        HoldStatus status,
        Instant expiresAt,
        Instant countHour,
        OwnCurrency own)
        implements Original {

    /**
     * What is still counted of an authorization in another currency, and what captures took of it (from
     * what was held and beyond), in that currency's minor units.
     */
    public record OwnCurrency(long counted, long captured) {

        public OwnCurrency {
            if (counted < 0 || captured < 0) {
                throw new IllegalArgumentException("own figures below zero: " + counted + ", " + captured);
            }
        }
    }

    public HoldLedger {
        parts = List.copyOf(parts);
        Objects.requireNonNull(status, "status");
        if (parts.isEmpty() || parts.get(0).kind() != PartKind.AUTHORIZATION) {
            throw new IllegalArgumentException("the first counted part is the authorization: " + parts);
        }
        // loops, not streams: every authorization the decider approves makes a ledger
        long counted = 0;
        for (int i = 0; i < parts.size(); i++) {
            CountedPart part = parts.get(i);
            if (i > 0 && part.kind() == PartKind.AUTHORIZATION) {
                throw new IllegalArgumentException("only the first counted part is the authorization: " + parts);
            }
            counted = Math.addExact(counted, part.counted());
        }
        if (captured < 0) {
            throw new IllegalArgumentException("captured below zero: " + captured);
        }
        if (expiresAt == null && (status == HoldStatus.CAPTURED || status == HoldStatus.EXPIRED)) {
            throw new IllegalArgumentException("a final spend is not a hold, so it is never " + status);
        }
        if ((countHour == null) != (counted == 0)) {
            throw new IllegalArgumentException(
                    "the count is in an hour exactly when something is counted: " + countHour + ", " + counted);
        }
        if (countHour != null) {
            CountedPart.requireWholeHour(countHour);
        }
    }

    /** The ledger of an authorization in the limit currency. */
    public HoldLedger(List<CountedPart> parts, long captured, HoldStatus status, Instant expiresAt, Instant countHour) {
        this(parts, captured, status, expiresAt, countHour, null);
    }

    /** An approved authorization that is a hold, counted in the hour it was decided in. */
    public static HoldLedger hold(long amount, Instant decidedAt, Instant expiresAt) {
        Objects.requireNonNull(expiresAt, "expiresAt");
        return authorized(amount, decidedAt, expiresAt);
    }

    /** An approved authorization that is a final spend: never held, never expires. */
    public static HoldLedger finalSpend(long amount, Instant decidedAt) {
        return authorized(amount, decidedAt, null);
    }

    private static HoldLedger authorized(long amount, Instant decidedAt, Instant expiresAt) {
        Instant hour = HourTally.hourOf(decidedAt);
        return new HoldLedger(
                List.of(new CountedPart(PartKind.AUTHORIZATION, hour, amount, 0)), 0, HoldStatus.OPEN, expiresAt, hour);
    }

    /**
     * This newly approved authorization as one in another currency, whose own amount (in that currency's
     * minor units) is ownAmount: all of it still counted, nothing captured.
     */
    public HoldLedger inOwnCurrency(long ownAmount) {
        return new HoldLedger(parts, captured, status, expiresAt, countHour, new OwnCurrency(ownAmount, 0));
    }

    /** The authorization's own amount. */
    public long amount() {
        return parts.get(0).amount();
    }

    /** The sum of the approved increments. */
    public long increments() {
        return sum(PartKind.INCREMENT);
    }

    /** The sum of what captures took beyond what was held. */
    public long overCaptured() {
        return sum(PartKind.OVER_CAPTURE);
    }

    /** Everything given back so far, from every part. */
    public long released() {
        return parts.stream().mapToLong(CountedPart::released).reduce(0, Math::addExact);
    }

    /** What is still counted: amount + increments + over-captures - released; never below zero. */
    public long counted() {
        return parts.stream().mapToLong(CountedPart::counted).reduce(0, Math::addExact);
    }

    /**
     * What is still held: counted and neither captured nor released, while the hold is open; 0 for a
     * closed hold and for a final spend. A reversal takes from it first, so captured money is given
     * back only once nothing is held.
     */
    public long held() {
        return isHold() && status == HoldStatus.OPEN ? Math.max(0, counted() - captured) : 0;
    }

    /** What is still counted of it in its own currency: {@link #counted()} for the limit currency. */
    public long ownCounted() {
        return own == null ? counted() : own.counted();
    }

    /** What captures took of it in its own currency: {@link #captured()} for the limit currency. */
    public long ownCaptured() {
        return own == null ? captured : own.captured();
    }

    /**
     * What is still held of it in its own currency, as {@link #held()} is in the limit currency: counted
     * and not captured while the hold is open, else 0.
     */
    public long ownHeld() {
        if (own == null) {
            return held();
        }
        return isHold() && status == HoldStatus.OPEN ? Math.max(0, own.counted() - own.captured()) : 0;
    }

    /** The authorized total an increment's limits are checked against: amount + increments. */
    public long authorized() {
        return Math.addExact(amount(), increments());
    }

    public boolean isHold() {
        return expiresAt != null;
    }

    /** A decision made at or after expiresAt never counts an open hold as open: it expires first. */
    public boolean isDueAt(Instant now) {
        return isHold() && status == HoldStatus.OPEN && !now.isBefore(expiresAt);
    }

    private long sum(PartKind kind) {
        return parts.stream()
                .filter(part -> part.kind() == kind)
                .mapToLong(CountedPart::amount)
                .reduce(0, Math::addExact);
    }

    /** This ledger with a part counted anew; the count comes back in its hour if nothing was counted. */
    HoldLedger count(PartKind kind, Instant hour, long amount) {
        List<CountedPart> more = new ArrayList<>(parts);
        more.add(new CountedPart(kind, hour, amount, 0));
        return new HoldLedger(more, captured, status, expiresAt, countHour == null ? hour : countHour, own);
    }

    HoldLedger withParts(List<CountedPart> released, Instant countHourAfter) {
        return new HoldLedger(released, captured, status, expiresAt, countHourAfter, own);
    }

    HoldLedger withCaptured(long capturedAfter) {
        return new HoldLedger(parts, capturedAfter, status, expiresAt, countHour, own);
    }

    HoldLedger withStatus(HoldStatus statusAfter) {
        return new HoldLedger(parts, captured, statusAfter, expiresAt, countHour, own);
    }

    HoldLedger withExpiresAt(Instant expiresAtAfter) {
        return new HoldLedger(parts, captured, status, expiresAtAfter, countHour, own);
    }

    /**
     * This ledger with its own figures moved: counted by countedBy, captured by capturedBy; unchanged for
     * an authorization in the limit currency, whose figures the caller moves.
     */
    HoldLedger withOwnMoved(long countedBy, long capturedBy) {
        if (own == null) {
            return this;
        }
        return new HoldLedger(
                parts,
                captured,
                status,
                expiresAt,
                countHour,
                new OwnCurrency(Math.addExact(own.counted(), countedBy), Math.addExact(own.captured(), capturedBy)));
    }
}
