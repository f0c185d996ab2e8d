package io.risklimits.cli;

import io.risklimits.decision.Currencies;
import java.math.BigDecimal;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

@Command(
        name = "rates",
        description = "Show and change the rates of risk_fx_rate: limit-currency (risk.currency) units per unit of"
                + " another currency. The service converts with the latest rate valid at each decision, read"
                + " within risk.limits.refresh (5 s by default), no restart.",
        subcommands = {RatesShowCommand.class, RatesSetCommand.class, RatesImportCommand.class})
final class RatesCommand {

    /** An ISO 4217 currency with a minor unit, the only currencies an event may be converted from. */
    static final class CurrencyCode implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (!value.matches("[A-Z]{3}") || Currencies.minorUnitDigits(value) < 0) {
                throw new TypeConversionException(
                        "expected an ISO 4217 currency with a minor unit, like EUR, but was '" + value + "'");
            }
            return value;
        }
    }

    /** A positive decimal rate, kept exact. */
    static final class Rate implements ITypeConverter<BigDecimal> {
        @Override
        public BigDecimal convert(String value) {
            BigDecimal rate;
            try {
                rate = new BigDecimal(value);
            } catch (NumberFormatException notANumber) {
                throw new TypeConversionException("expected a decimal rate like 1.0842 but was '" + value + "'");
            }
            if (rate.signum() <= 0) {
                throw new TypeConversionException("a rate must be positive, not " + value);
            }
            return rate;
        }
    }
}
