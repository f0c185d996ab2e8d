package io.risklimits.cli;

import io.risklimits.decision.Window;
import io.risklimits.limits.LimitRow;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import picocli.CommandLine.TypeConversionException;

/**
 * The proposed limits of a backtest, a CSV file of rows {@code
 * channel,direction,entity_id,window,max_amount,max_count} ({@code entity_id} empty for none; a first
 * line starting with "channel" is a header). Every field is checked as {@code limits set} checks its
 * option, and one row per scope and window, as in risk_limit.
 */
final class ProposedLimitsFile {

    private static final int FIELDS = 6;

    private ProposedLimitsFile() {}

    /** @throws TypeConversionException naming the file and line of the first bad row */
    static List<LimitRow> read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException unreadable) {
            throw new TypeConversionException("cannot read " + file + ": " + unreadable);
        }
        List<LimitRow> rows = new ArrayList<>();
        Map<String, Integer> lineOfScope = new HashMap<>();
        for (int index = 0; index < lines.size(); index++) {
            String line = lines.get(index).strip();
            if (line.isEmpty() || (index == 0 && line.startsWith("channel"))) {
                continue;
            }
            int lineNumber = index + 1;
            LimitRow row = parse(line, file, lineNumber);
            String scope =
                    RowScope.of(row).describe() + " window " + row.window().label();
            Integer first = lineOfScope.putIfAbsent(scope, lineNumber);
            if (first != null) {
                throw new TypeConversionException(file + " line " + lineNumber + ": a second row for " + scope
                        + " (the first is on line " + first + ")");
            }
            rows.add(row);
        }
        return rows;
    }

    private static LimitRow parse(String line, Path file, int lineNumber) {
        String[] fields = line.split(",", -1);
        try {
            if (fields.length != FIELDS) {
                throw new TypeConversionException("expected 6 fields"
                        + " (channel,direction,entity_id,window,max_amount,max_count) but found " + fields.length);
            }
            String channel = new Converters.ChannelOrAny().convert(fields[0].strip());
            String direction = new Converters.DirectionOrAny().convert(fields[1].strip());
            String entity = fields[2].strip();
            UUID entityId = entity.isEmpty() ? null : new Converters.Uuid().convert(entity);
            Window window = new Converters.WindowLabel().convert(fields[3].strip());
            long maxAmount = new Converters.NonNegative().convert(fields[4].strip());
            long maxCount = new Converters.NonNegative().convert(fields[5].strip());
            return new LimitRow(channel, direction, entityId, window, maxAmount, maxCount);
        } catch (TypeConversionException badField) {
            throw new TypeConversionException(file + " line " + lineNumber + ": " + badField.getMessage());
        }
    }
}
