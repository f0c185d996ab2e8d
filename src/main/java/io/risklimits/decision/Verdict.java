package io.risklimits.decision;

/** The value of the decision field. */
public enum Verdict {
    APPROVED,
    REJECTED,
    /** A reversal gave back limit. */
    RELEASED,
    INVALID
}
