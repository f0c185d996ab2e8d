package io.risklimits.decision.hold;

/** What put a counted part on an authorization's ledger. */
public enum PartKind {
    /** The approved authorization itself: always the first part, and the only one of its kind. */
    AUTHORIZATION,
    /** An approved incremental authorization: the hold grows by it. */
    INCREMENT,
    /** What a capture took beyond what was held, counted anew when it was captured. */
    OVER_CAPTURE
}
