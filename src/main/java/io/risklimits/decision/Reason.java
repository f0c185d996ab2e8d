package io.risklimits.decision;

public enum Reason {
    LIMIT_24H_AMOUNT,
    LIMIT_24H_COUNT,
    LIMIT_7D_AMOUNT,
    LIMIT_7D_COUNT,
    LIMIT_30D_AMOUNT,
    LIMIT_30D_COUNT,
    INVALID_REQUEST
}
