package io.risklimits.cli;

import io.risklimits.decision.FxRate;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "set",
        description = "Sets the rate of a currency, valid from --valid-from (default: now); replaces the rate of that"
                + " currency and instant if there is one.")
final class RatesSetCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "CUR", converter = RatesCommand.CurrencyCode.class, description = "ISO 4217")
    String currency;

    @Parameters(
            index = "1",
            paramLabel = "RATE",
            converter = RatesCommand.Rate.class,
            description = "limit-currency units per unit of CUR, > 0")
    BigDecimal rate;

    @Option(
            names = "--valid-from",
            paramLabel = "TS",
            converter = BacktestCommand.InstantText.class,
            description = "an ISO-8601 instant (default: now, the database clock)")
    Instant validFrom;

    @Mixin
    DatabaseOptions database;

    @Override
    public Integer call() {
        Instant from;
        try (Database db = database.open()) {
            from = new FxRateRows(db.jdbc())
                    .upsertAll(List.of(new FxRate(currency, rate, validFrom)))
                    .get(0);
        }
        spec.commandLine()
                .getOut()
                .println("set " + currency + " rate " + rate.toPlainString() + " valid from " + from
                        + "; in force for decisions made after risk.limits.refresh (5 s by default)");
        return 0;
    }
}
