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
    // a limit of the entity over all its channels ({@link Scope#ENTITY})
    ENTITY_LIMIT_TXN_AMOUNT,
    ENTITY_LIMIT_24H_AMOUNT,
    ENTITY_LIMIT_24H_COUNT,
    ENTITY_LIMIT_7D_AMOUNT,
    ENTITY_LIMIT_7D_COUNT,
    ENTITY_LIMIT_30D_AMOUNT,
    ENTITY_LIMIT_30D_COUNT,
    ENTITY_LIMIT_DAY_AMOUNT,
    ENTITY_LIMIT_DAY_COUNT,
    ENTITY_LIMIT_WEEK_AMOUNT,
    ENTITY_LIMIT_WEEK_COUNT,
    ENTITY_LIMIT_MONTH_AMOUNT,
    ENTITY_LIMIT_MONTH_COUNT,
    // a limit of the account on the event's channel ({@link Scope#ACCOUNT_CHANNEL})
    ACCOUNT_CHANNEL_LIMIT_TXN_AMOUNT,
    ACCOUNT_CHANNEL_LIMIT_24H_AMOUNT,
    ACCOUNT_CHANNEL_LIMIT_24H_COUNT,
    ACCOUNT_CHANNEL_LIMIT_7D_AMOUNT,
    ACCOUNT_CHANNEL_LIMIT_7D_COUNT,
    ACCOUNT_CHANNEL_LIMIT_30D_AMOUNT,
    ACCOUNT_CHANNEL_LIMIT_30D_COUNT,
    ACCOUNT_CHANNEL_LIMIT_DAY_AMOUNT,
    ACCOUNT_CHANNEL_LIMIT_DAY_COUNT,
    ACCOUNT_CHANNEL_LIMIT_WEEK_AMOUNT,
    ACCOUNT_CHANNEL_LIMIT_WEEK_COUNT,
    ACCOUNT_CHANNEL_LIMIT_MONTH_AMOUNT,
    ACCOUNT_CHANNEL_LIMIT_MONTH_COUNT,
    // a limit of the account over all its channels ({@link Scope#ACCOUNT})
    ACCOUNT_LIMIT_TXN_AMOUNT,
    ACCOUNT_LIMIT_24H_AMOUNT,
    ACCOUNT_LIMIT_24H_COUNT,
    ACCOUNT_LIMIT_7D_AMOUNT,
    ACCOUNT_LIMIT_7D_COUNT,
    ACCOUNT_LIMIT_30D_AMOUNT,
    ACCOUNT_LIMIT_30D_COUNT,
    ACCOUNT_LIMIT_DAY_AMOUNT,
    ACCOUNT_LIMIT_DAY_COUNT,
    ACCOUNT_LIMIT_WEEK_AMOUNT,
    ACCOUNT_LIMIT_WEEK_COUNT,
    ACCOUNT_LIMIT_MONTH_AMOUNT,
    ACCOUNT_LIMIT_MONTH_COUNT,
    /** A reversal's original is unknown under its business key, or past retention. */
    ORIGINAL_NOT_FOUND,
    /** A reversal's original is not an approved authorization. */
    ORIGINAL_NOT_APPROVED,
    /** A reversal asks to release more than is still counted of its original. */
    EXCEEDS_REMAINING,
    /** An increment names a hold that expired, was fully released or was finally captured. */
    HOLD_CLOSED,
    /** An event's currency has no rate in risk_fx_rate valid at the decision. */
    NO_FX_RATE,
    /** The latest rate of an event's currency is older than risk.fx.max-age. */
    FX_RATE_STALE,
    /** A follow-up is not in its original's currency. */
    CURRENCY_MISMATCH,
    INVALID_REQUEST
}
