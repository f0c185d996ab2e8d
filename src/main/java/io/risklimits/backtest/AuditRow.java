package io.risklimits.backtest;

import io.risklimits.decision.EventType;
import io.risklimits.decision.Outcome;
import io.risklimits.decision.Reason;
import io.risklimits.decision.Verdict;
import java.time.Instant;
import java.util.UUID;

/**
 * One decision of the audit log as the backtest replays it: an authorization, a follow-up (reversal,
 * capture, increment) or an expiry (INVALID rows are not replayed), with its stored outcome.
 *
 * @param reverses the authorization a reversal names (null for the other types)
 * @param releasedAmount what a stored RELEASED reversal gave back (0 otherwise)
 * @param releasedCount 1 when a stored RELEASED reversal brought its original's remaining to 0
 * @param bucketHour the hour bucket it was decided in, in hours since the epoch (UTC)
 * @param inPeriod decided inside the backtest's period: decided again; before it: its stored outcome stands
 * @param storedReason the stored reason, null when there was none or it is not one this version knows
 * @param decidedAt when it was decided: the instant a hold due by then expires before it
 * @param original the authorization a capture, an increment or an expiry acts on (a reversal may name it
 *     here instead of in reverses)
 * @param holdExpiresAt an approved authorization's hold expiry (null for a final spend); an expiry's
 *     instant
 * @param askedHoldExpiresAt the hold_expires_at an increment asked for, which moves its hold's expiry
 * @param isFinal whether a capture is its authorization's last
 * @param captured what a stored capture took from what its authorization held
 * @param overCaptured what a stored capture counted anew beyond it
 */
public record AuditRow(
        UUID dedupeId,
        EventType type,
        Verdict storedVerdict,
        long amount,
        UUID reverses,
        long releasedAmount,
        int releasedCount,
        long bucketHour,
        boolean inPeriod,
        Reason storedReason,
        Instant decidedAt,
        UUID original,
        Instant holdExpiresAt,
        Instant askedHoldExpiresAt,
        boolean isFinal,
        long captured,
        long overCaptured) {

    /** A stored authorization that is not a hold, decided at the start of its bucket. */
    public static AuditRow authorization(
            UUID dedupeId, Verdict stored, long amount, long bucketHour, boolean inPeriod) {
        return new AuditRow(
                dedupeId,
                EventType.AUTHORIZATION,
                stored,
                amount,
                null,
                0,
                0,
                bucketHour,
                inPeriod,
                null,
                startOf(bucketHour),
                null,
                null,
                null,
                false,
                0,
                0);
    }

    /** A stored authorization decided at decidedAt; approved, a hold until holdExpiresAt (null for none). */
    public static AuditRow authorization(
            UUID dedupeId, Verdict stored, long amount, Instant decidedAt, Instant holdExpiresAt, boolean inPeriod) {
        return new AuditRow(
                dedupeId,
                EventType.AUTHORIZATION,
                stored,
                amount,
                null,
                0,
                0,
                hourOf(decidedAt),
                inPeriod,
                null,
                decidedAt,
                null,
                holdExpiresAt,
                null,
                false,
                0,
                0);
    }

    /** A stored reversal decided at the start of its bucket; releasedAmount and releasedCount as stored. */
    public static AuditRow reversal(
            UUID dedupeId,
            Verdict stored,
            long amount,
            UUID reverses,
            long releasedAmount,
            int releasedCount,
            long bucketHour,
            boolean inPeriod) {
        return new AuditRow(
                dedupeId,
                EventType.REVERSAL,
                stored,
                amount,
                reverses,
                releasedAmount,
                releasedCount,
                bucketHour,
                inPeriod,
                null,
                startOf(bucketHour),
                null,
                null,
                null,
                false,
                0,
                0);
    }

    /** A stored capture (always CAPTURED) of the original. */
    public static AuditRow capture(
            UUID dedupeId, long amount, UUID original, boolean isFinal, Instant decidedAt, boolean inPeriod) {
        return new AuditRow(
                dedupeId,
                EventType.CAPTURE,
                Verdict.CAPTURED,
                amount,
                null,
                0,
                0,
                hourOf(decidedAt),
                inPeriod,
                null,
                decidedAt,
                original,
                null,
                null,
                isFinal,
                0,
                0);
    }

    /** A stored increment of the original; askedHoldExpiresAt null when it asked for none. */
    public static AuditRow increment(
            UUID dedupeId,
            Verdict stored,
            long amount,
            UUID original,
            Instant askedHoldExpiresAt,
            Instant decidedAt,
            boolean inPeriod) {
        return new AuditRow(
                dedupeId,
                EventType.INCREMENT,
                stored,
                amount,
                null,
                0,
                0,
                hourOf(decidedAt),
                inPeriod,
                null,
                decidedAt,
                original,
                null,
                askedHoldExpiresAt,
                false,
                0,
                0);
    }

    /** A stored expiry of the original's hold at expiresAt, filed by a batch decided at decidedAt. */
    public static AuditRow expiry(
            UUID dedupeId, long amount, UUID original, Instant expiresAt, Instant decidedAt, boolean inPeriod) {
        return new AuditRow(
                dedupeId,
                EventType.EXPIRY,
                Verdict.EXPIRED,
                amount,
                null,
                0,
                0,
                hourOf(decidedAt),
                inPeriod,
                null,
                decidedAt,
                original,
                expiresAt,
                null,
                false,
                0,
                0);
    }

    /** The same row with the reason it was stored with. */
    public AuditRow storedFor(Reason reason) {
        return new AuditRow(
                dedupeId,
                type,
                storedVerdict,
                amount,
                reverses,
                releasedAmount,
                releasedCount,
                bucketHour,
                inPeriod,
                reason,
                decidedAt,
                original,
                holdExpiresAt,
                askedHoldExpiresAt,
                isFinal,
                0,
                0);
    }

    /** When it takes effect: an expiry at the instant the hold expired, any other decision when decided. */
    Instant effectiveAt() {
        return type == EventType.EXPIRY && holdExpiresAt != null ? holdExpiresAt : decidedAt;
    }

    /** The authorization a follow-up or an expiry acts on; null for an authorization. */
    UUID target() {
        return reverses != null ? reverses : original;
    }

    boolean isAuthorization() {
        return type == EventType.AUTHORIZATION;
    }

    /**
     * Rejected because its amount could not be counted in the limit currency (no rate, a stale one): no
     * limit would have admitted it, so a replay rejects it again for the same reason.
     */
    Outcome uncountable() {
        return storedReason == Reason.NO_FX_RATE || storedReason == Reason.FX_RATE_STALE
                ? Outcome.rejectedFor(storedReason)
                : null;
    }

    private static Instant startOf(long bucketHour) {
        return Instant.ofEpochSecond(Math.multiplyExact(bucketHour, 3600));
    }

    private static long hourOf(Instant instant) {
        return Math.floorDiv(instant.getEpochSecond(), 3600);
    }
}
