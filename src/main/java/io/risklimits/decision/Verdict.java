package io.risklimits.decision;

/** The value of the decision field. */
public enum Verdict {
    APPROVED,
    REJECTED,
    /** A reversal gave back limit. */
    RELEASED,
    INVALID,
    /** A capture was counted: from what its authorization held, and anew beyond it. */
    CAPTURED,
    /** A hold expired and gave back what it still held. */
    EXPIRED
}
