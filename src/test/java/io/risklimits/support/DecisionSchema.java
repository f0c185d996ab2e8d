package io.risklimits.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/** Validates messages against the JSON Schemas in the project's schemas/ folder. */
public final class DecisionSchema {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonSchema DECISION = load("decision.schema.json");
    private static final JsonSchema TRANSACTION_EVENT = load("transaction-event.schema.json");
    private static final JsonSchema ARCHIVE_RESULT = load("archive-result.schema.json");

    private DecisionSchema() {}

    public static void assertValidDecision(byte[] message) {
        assertValid(DECISION, message);
    }

    public static boolean isValidDecision(byte[] message) {
        return isValid(DECISION, message);
    }

    public static void assertValidArchiveResult(byte[] message) {
        assertValid(ARCHIVE_RESULT, message);
    }

    public static void assertValidEvent(byte[] message) {
        assertValid(TRANSACTION_EVENT, message);
    }

    public static boolean isValidEvent(byte[] message) {
        return isValid(TRANSACTION_EVENT, message);
    }

    private static boolean isValid(JsonSchema schema, byte[] message) {
        try {
            return schema.validate(JSON.readTree(message)).isEmpty();
        } catch (IOException e) {
            return false;
        }
    }

    private static void assertValid(JsonSchema schema, byte[] message) {
        try {
            Set<ValidationMessage> problems = schema.validate(JSON.readTree(message));
            assertThat(problems)
                    .as("schema problems of %s", new String(message))
                    .isEmpty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonSchema load(String file) {
        try {
            SchemaValidatorsConfig config = SchemaValidatorsConfig.builder()
                    .formatAssertionsEnabled(true)
                    .build();
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                    .getSchema(Files.readString(Path.of("schemas", file)), config);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
