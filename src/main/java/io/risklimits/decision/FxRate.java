package io.risklimits.decision;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A row of risk_fx_rate: how many units of the limit currency one unit of the currency is worth, from
 * validFrom on (until a later row of the same currency).
 */
public record FxRate(String currency, BigDecimal rate, Instant validFrom) {}
