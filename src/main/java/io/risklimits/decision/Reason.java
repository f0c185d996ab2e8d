package io.risklimits.decision;

/** Why a decision is not APPROVED or RELEASED. */
public enum Reason {
    LIMIT_TXN_AMOUNT,
    LIMIT_24H_AMOUNT,
    LIMIT_24H_COUNT,
    LIMIT_7D_AMOUNT,
    LIMIT_7D_COUNT,
    LIMIT_30D_AMOUNT,
    LIMIT_30D_COUNT,
    LIMIT_DAY_AMOUNT,
    LIMIT_DAY_COUNT,
    LIMIT_WEEK_AMOUNT,
    LIMIT_WEEK_COUNT,
    LIMIT_MONTH_AMOUNT,
    LIMIT_MONTH_COUNT,
    /** A reversal's original is unknown under its business key, or past retention. */
    ORIGINAL_NOT_FOUND,
    /** A reversal's original is not an approved authorization. */
    ORIGINAL_NOT_APPROVED,
    /** A reversal asks to release more than is still counted of its original. */
    EXCEEDS_REMAINING,
    INVALID_REQUEST
}
