package io.risklimits.decision;

/** What an event asks for: limit for a payment, or limit given back by a refund, cancellation or partial capture. */
public enum EventType {
    AUTHORIZATION,
    REVERSAL
}
