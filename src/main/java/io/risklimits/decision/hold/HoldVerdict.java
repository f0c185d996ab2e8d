package io.risklimits.decision.hold;

/** The decision field of a hold's decisions; each name is the decision value it stands for. */
public enum HoldVerdict {
    /** An increment the hold grew by. */
    APPROVED,
    REJECTED,
    /** A reversal gave back what it asked for. */
    RELEASED,
    /** A capture, never refused: the money has moved. */
    CAPTURED,
    /** The hold's expiry released what it still held. */
    EXPIRED
}
