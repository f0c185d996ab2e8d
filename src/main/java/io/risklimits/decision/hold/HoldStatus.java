package io.risklimits.decision.hold;

/**
 * Where an authorization's hold stands. Only an OPEN hold holds anything; every other status is final
 * and admits no increment. A final spend (an authorization that is not a hold) is OPEN until it is
 * fully released, and holds nothing.
 */
public enum HoldStatus {
    OPEN,
    /** A final capture closed it. */
    CAPTURED,
    /** Its expiry released what it still held. */
    EXPIRED,
    /** Reversals released everything counted of it. */
    RELEASED
}
