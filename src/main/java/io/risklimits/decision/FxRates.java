package io.risklimits.decision;

import java.time.Instant;

/** The rates known to the service. */
@FunctionalInterface
public interface FxRates {

    /** No rate for any currency. */
    FxRates NONE = (currency, at) -> null;

    /** The latest rate of the currency whose validFrom is not after the instant; null when there is none. */
    FxRate latestAt(String currency, Instant at);
}
