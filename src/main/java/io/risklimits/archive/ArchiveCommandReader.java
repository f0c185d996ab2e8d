package io.risklimits.archive;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Reads an archive command strictly, by the rules of schemas/archive-command.schema.json. */
final class ArchiveCommandReader {

    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(32)
                            .maxNumberLength(100)
                            .maxStringLength(64 * 1024)
                            .maxDocumentLength(1024 * 1024)
                            .build())
                    .build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    /** What reading gave: a command, or an error with the command_id when that much was readable. */
    sealed interface Read {
        record Command(ArchiveCommand command) implements Read {}

        record Invalid(UUID commandId, String error) implements Read {}
    }

    static Read read(byte[] value) {
        JsonNode root;
        try {
            if (value == null) {
                return new Read.Invalid(null, "the record has no value");
            }
            String text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(value))
                    .toString();
            root = MAPPER.readTree(text);
        } catch (CharacterCodingException | JacksonException notJson) {
            return new Read.Invalid(null, "not a JSON document in UTF-8");
        }
        if (root == null || !root.isObject()) {
            return new Read.Invalid(null, "not a JSON object");
        }
        JsonNode id = root.get("command_id");
        if (id == null || !id.isString() || !UUID_TEXT.matcher(id.stringValue()).matches()) {
            return new Read.Invalid(null, "command_id is required and must be a UUID");
        }
        UUID commandId = UUID.fromString(id.stringValue());
        JsonNode window = root.get("window_minutes");
        int windowMinutes = ArchiveCommand.DEFAULT_WINDOW_MINUTES;
        if (window != null && !window.isNull()) {
            if (!window.isIntegralNumber()
                    || !window.canConvertToInt()
                    || window.intValue() < 1
                    || window.intValue() > 1440) {
                return new Read.Invalid(commandId, "window_minutes must be an integer 1 .. 1440");
            }
            windowMinutes = window.intValue();
        }
        JsonNode max = root.get("max_windows");
        Integer maxWindows = null;
        if (max != null && !max.isNull()) {
            if (!max.isIntegralNumber() || !max.canConvertToInt() || max.intValue() < 1) {
                return new Read.Invalid(commandId, "max_windows must be a positive integer");
            }
            maxWindows = max.intValue();
        }
        JsonNode dry = root.get("dry_run");
        boolean dryRun = false;
        if (dry != null && !dry.isNull()) {
            if (!dry.isBoolean()) {
                return new Read.Invalid(commandId, "dry_run must be true or false");
            }
            dryRun = dry.booleanValue();
        }
        return new Read.Command(new ArchiveCommand(commandId, windowMinutes, maxWindows, dryRun));
    }

    private ArchiveCommandReader() {}
}
