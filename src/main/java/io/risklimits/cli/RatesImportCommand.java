package io.risklimits.cli;

import io.risklimits.decision.FxRate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

@Command(
        name = "import",
        description = "Imports a CSV file of rates, lines currency,rate,valid_from (an ISO-8601 instant; a first line"
                + " starting with \"currency\" is a header), every field checked as rates set checks it, all or none.")
final class RatesImportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE.csv", converter = RatesFile.class, description = "the rates")
    List<FxRate> rates;

    @Mixin
    DatabaseOptions database;

    @Override
    public Integer call() {
        try (Database db = database.open()) {
            new FxRateRows(db.jdbc()).upsertAll(rates);
        }
        spec.commandLine()
                .getOut()
                .println("imported " + rates.size() + " rates; in force for decisions made after risk.limits.refresh"
                        + " (5 s by default)");
        return 0;
    }

    /** The rows of the file. @throws TypeConversionException naming the line of the first bad row */
    static final class RatesFile implements picocli.CommandLine.ITypeConverter<List<FxRate>> {
        @Override
        public List<FxRate> convert(String value) {
            Path file = Path.of(value);
            List<String> lines;
            try {
                lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            } catch (IOException unreadable) {
                throw new TypeConversionException("cannot read " + file + ": " + unreadable);
            }
            List<FxRate> rates = new ArrayList<>();
            for (int index = 0; index < lines.size(); index++) {
                String line = lines.get(index).strip();
                if (line.isEmpty() || (index == 0 && line.startsWith("currency"))) {
                    continue;
                }
                String[] fields = line.split(",", -1);
                try {
                    if (fields.length != 3) {
                        throw new TypeConversionException("expected currency,rate,valid_from");
                    }
                    rates.add(new FxRate(
                            new RatesCommand.CurrencyCode().convert(fields[0].strip()),
                            new RatesCommand.Rate().convert(fields[1].strip()),
                            new BacktestCommand.InstantText().convert(fields[2].strip())));
                } catch (TypeConversionException badRow) {
                    throw new TypeConversionException(file + " line " + (index + 1) + ": " + badRow.getMessage());
                }
            }
            return rates;
        }
    }
}
