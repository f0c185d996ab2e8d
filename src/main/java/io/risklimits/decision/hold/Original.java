package io.risklimits.decision.hold;

/**
 * What is known, under the business key's lock, of the authorization a follow-up (reversal, increment,
 * capture) names: nothing, an event that is not an approved authorization, or the ledger of an approved
 * one.
 */
public sealed interface Original permits Original.NoLedger, HoldLedger {

    /** A named original of which nothing is counted as an approved authorization. */
    enum NoLedger implements Original {
        /** No event with that dedupe_id under the business key: unknown, filed under another key, or past retention. */
        NOT_FOUND,
        /** An event with that dedupe_id that is not an approved authorization: rejected, invalid, or a follow-up. */
        NOT_APPROVED
    }
}
