package io.risklimits.backtest;

import io.risklimits.decision.EventType;
import io.risklimits.decision.Reason;
import io.risklimits.decision.Verdict;
import java.util.UUID;

/**
 * One decision of the audit log as the backtest replays it: an authorization or a reversal (INVALID
 * rows are not replayed), with its stored outcome.
 *
 * @param bucketHour the hour bucket it was decided in, in hours since the epoch (UTC)
 * @param releasedAmount what a stored RELEASED reversal gave back (0 otherwise)
 * @param releasedCount 1 when a stored RELEASED reversal brought its original's remaining to 0
 * @param inPeriod decided inside the backtest's period: decided again; before it: its stored outcome stands
 * @param storedReason the stored reason, null when there was none or it is not one this version knows
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
        Reason storedReason) {

    /** A stored authorization. */
    public static AuditRow authorization(
            UUID dedupeId, Verdict stored, long amount, long bucketHour, boolean inPeriod) {
        return new AuditRow(dedupeId, EventType.AUTHORIZATION, stored, amount, null, 0, 0, bucketHour, inPeriod, null);
    }

    /** A stored reversal; releasedAmount and releasedCount as stored (0 unless RELEASED). */
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
                null);
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
                reason);
    }

    boolean isAuthorization() {
        return type == EventType.AUTHORIZATION;
    }
}
