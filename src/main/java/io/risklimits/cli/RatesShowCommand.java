package io.risklimits.cli;

import io.risklimits.decision.FxRate;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "show", description = "Every row of risk_fx_rate, by currency and valid_from.")
final class RatesShowCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    DatabaseOptions database;

    @Override
    public Integer call() {
        TextTable table = new TextTable("currency", "rate", "valid_from");
        try (Database db = database.open()) {
            for (FxRate rate : new FxRateRows(db.jdbc()).all()) {
                table.row(rate.currency(), rate.rate().toPlainString(), rate.validFrom());
            }
        }
        table.print(spec.commandLine().getOut(), "");
        return 0;
    }
}
