package io.risklimits.decision;

/**
 * What a reversal does, free of I/O: given back only from an approved authorization, and never more
 * than is still counted of it. A reversal consumes no limit and is never rejected for one.
 */
public final class ReversalPolicy {

    private ReversalPolicy() {}

    /**
     * What is known of a reversal's original under the business key's lock.
     *
     * @param released the amount the reversals applied before this one gave back
     */
    public record Original(EventType type, Verdict verdict, long amount, long released) {

        public long remaining() {
            return amount - released;
        }
    }

    /**
     * @param released what this reversal gives back (null unless RELEASED): its amount, and a count of 1
     *     when it brings the original's remaining amount to 0
     * @param remaining the original's amount still counted after this reversal (null when the original
     *     is not an approved authorization)
     */
    public record Outcome(Verdict verdict, Reason reason, Tally released, Long remaining) {

        public boolean isReleased() {
            return verdict == Verdict.RELEASED;
        }
    }

    /** @param original null when there is none under the business key (unknown, or past retention) */
    public static Outcome decide(long amount, Original original) {
        if (original == null) {
            return new Outcome(Verdict.REJECTED, Reason.ORIGINAL_NOT_FOUND, null, null);
        }
        if (original.type() != EventType.AUTHORIZATION || original.verdict() != Verdict.APPROVED) {
            return new Outcome(Verdict.REJECTED, Reason.ORIGINAL_NOT_APPROVED, null, null);
        }
        long remaining = original.remaining();
        if (amount > remaining) {
            return new Outcome(Verdict.REJECTED, Reason.EXCEEDS_REMAINING, null, remaining);
        }
        long after = remaining - amount;
        return new Outcome(Verdict.RELEASED, null, new Tally(amount, after == 0 ? 1 : 0), after);
    }
}
