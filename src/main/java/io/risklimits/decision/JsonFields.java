package io.risklimits.decision;

import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The event's field checks that several fields share: a required string, one that matches a pattern,
 * a canonical UUID. Error messages name the field and the rule, never the value.
 */
final class JsonFields {

    private JsonFields() {}

    /** A required string that matches the pattern; else null, with the error (rule) added. */
    static String matching(JsonNode node, String field, Pattern pattern, String rule, List<FieldError> errors) {
        String text = requiredString(node, field, errors);
        if (text == null) {
            return null;
        }
        if (!pattern.matcher(text).matches()) {
            errors.add(new FieldError(field, rule));
            return null;
        }
        return text;
    }

    /** A required string; else null, with the error added. */
    static String requiredString(JsonNode node, String field, List<FieldError> errors) {
        if (node == null || node.isNull()) {
            errors.add(new FieldError(field, "is required"));
            return null;
        }
        if (!node.isString()) {
            errors.add(new FieldError(field, "must be a string"));
            return null;
        }
        return node.stringValue();
    }

    /** A UUID in canonical text form; null when absent, not a string or not one. */
    static UUID uuidOrNull(JsonNode node) {
        if (node == null || !node.isString()) {
            return null;
        }
        String text = node.stringValue();
        return isCanonicalUuid(text) ? UUID.fromString(text) : null;
    }

    // 8-4-4-4-12 hexadecimal digits, checked by hand rather than by a regular expression: it runs for
    // every UUID of every event
    private static boolean isCanonicalUuid(String text) {
        if (text.length() != 36) {
            return false;
        }
        for (int i = 0; i < 36; i++) {
            char c = text.charAt(i);
            boolean valid = i == 8 || i == 13 || i == 18 || i == 23
                    ? c == '-'
                    : (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            if (!valid) {
                return false;
            }
        }
        return true;
    }
}
