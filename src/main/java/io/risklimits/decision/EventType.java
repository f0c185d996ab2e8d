package io.risklimits.decision;

/**
 * What an event asks for: limit for a payment (an authorization, or more of it: an increment), limit
 * given back (a reversal: a refund, cancellation or partial capture), or a hold turned into a spend (a
 * capture). EXPIRY is never sent: it is the type of the decision the service makes when a hold expires.
 */
public enum EventType {
    AUTHORIZATION,
    REVERSAL,
    CAPTURE,
    INCREMENT,
    EXPIRY;

    /** A follow-up names the authorization it acts on. */
    public boolean isFollowUp() {
        return this == REVERSAL || this == CAPTURE || this == INCREMENT;
    }
}
