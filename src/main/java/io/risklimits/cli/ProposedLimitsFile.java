package io.risklimits.cli;

import io.risklimits.decision.Scope;
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
 * channel,direction,entity_id,window,max_amount,max_count[,scope,account_id]} ({@code entity_id} and
 * {@code account_id} empty for none; without the last two fields, or with {@code scope} empty, a row
 * of the business key's scope; a first line starting with "channel" is a header). Every field is
 * checked as {@code limits set} checks its option, a row's scope as risk_limit checks it (channel "*"
 * at the entity and account scopes, an entity only at the key and entity scopes, an account only at
 * the account scopes), and one row per scope, owner, channel, direction and window, as in risk_limit.
 */
final class ProposedLimitsFile {

    private static final int KEY_FIELDS = 6;
    private static final int SCOPE_FIELDS = 8;

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
            if (fields.length != KEY_FIELDS && fields.length != SCOPE_FIELDS) {
                throw new TypeConversionException("expected 6 fields"
                        + " (channel,direction,entity_id,window,max_amount,max_count) or 8 (the same and"
                        + " scope,account_id) but found " + fields.length);
            }
            String channel = new Converters.ChannelOrAny().convert(fields[0].strip());
            String direction = new Converters.DirectionOrAny().convert(fields[1].strip());
            UUID entityId = uuidOrNull(fields[2]);
            Window window = new Converters.WindowLabel().convert(fields[3].strip());
            long maxAmount = new Converters.NonNegative().convert(fields[4].strip());
            long maxCount = new Converters.NonNegative().convert(fields[5].strip());
            Scope scope = fields.length == KEY_FIELDS || fields[6].isBlank() ? Scope.KEY : scope(fields[6].strip());
            UUID accountId = fields.length == KEY_FIELDS ? null : uuidOrNull(fields[7]);
            try {
                return new LimitRow(
                        channel,
                        direction,
                        entityId,
                        window,
                        maxAmount,
                        maxCount,
                        LimitRow.Mode.ENFORCE,
                        scope,
                        accountId);
            } catch (IllegalArgumentException notOfTheScope) {
                throw new TypeConversionException(notOfTheScope.getMessage());
            }
        } catch (TypeConversionException badField) {
            throw new TypeConversionException(file + " line " + lineNumber + ": " + badField.getMessage());
        }
    }

    private static UUID uuidOrNull(String field) {
        String text = field.strip();
        return text.isEmpty() ? null : new Converters.Uuid().convert(text);
    }

    private static Scope scope(String label) {
        try {
            return Scope.fromLabel(label);
        } catch (IllegalArgumentException unknown) {
            throw new TypeConversionException(unknown.getMessage());
        }
    }
}
