package io.risklimits.decision;

import java.nio.charset.StandardCharsets;

/**
 * A JSON object written as text, property by property, the commas placed by the writer. It is what the
 * decision message and the request log's documents are written with: a few dozen fixed names and short
 * values per decision, on the decider's hot path, where setting up a Jackson generator cost more than
 * the text itself (JsonObjectTextTest holds its escaping to what a JSON parser reads back).
 *
 * <p>Names are the schema's own, plain ASCII, written as given. String values are escaped as RFC 8259
 * requires: quotation mark, reverse solidus and the control characters below U+0020; the rest is
 * written as it is, and {@link #bytes()} encodes it as UTF-8.
 */
final class JsonObjectText {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final StringBuilder text;
    // whether the next value or name follows another in the same object or array
    private boolean afterValue;

    JsonObjectText(int capacity) {
        text = new StringBuilder(capacity).append('{');
    }

    JsonObjectText string(String name, String value) {
        name(name);
        return stringValue(value);
    }

    JsonObjectText number(String name, long value) {
        name(name);
        text.append(value);
        afterValue = true;
        return this;
    }

    /** A number, or null. */
    JsonObjectText number(String name, Long value) {
        return value == null ? raw(name, "null") : number(name, value.longValue());
    }

    JsonObjectText bool(String name, boolean value) {
        return raw(name, value ? "true" : "false");
    }

    /** A value that is JSON text already (a document written by this class, or kept from one). */
    JsonObjectText raw(String name, String json) {
        name(name);
        text.append(json);
        afterValue = true;
        return this;
    }

    JsonObjectText startObject(String name) {
        name(name);
        return startObject();
    }

    /** An object as an element of the array being written. */
    JsonObjectText startObject() {
        comma();
        text.append('{');
        afterValue = false;
        return this;
    }

    JsonObjectText endObject() {
        text.append('}');
        afterValue = true;
        return this;
    }

    JsonObjectText startArray(String name) {
        name(name);
        text.append('[');
        afterValue = false;
        return this;
    }

    /** A string as an element of the array being written. */
    JsonObjectText element(String value) {
        comma();
        return stringValue(value);
    }

    JsonObjectText endArray() {
        text.append(']');
        afterValue = true;
        return this;
    }

    /** The object's text, closed. */
    String close() {
        return text.append('}').toString();
    }

    /** The object's text, closed, in UTF-8. */
    byte[] bytes() {
        return close().getBytes(StandardCharsets.UTF_8);
    }

    private void name(String name) {
        comma();
        text.append('"').append(name).append("\":");
        afterValue = false;
    }

    private void comma() {
        if (afterValue) {
            text.append(',');
        }
    }

    private JsonObjectText stringValue(String value) {
        if (value == null) {
            text.append("null");
        } else {
            text.append('"');
            escaped(value);
            text.append('"');
        }
        afterValue = true;
        return this;
    }

    private void escaped(String value) {
        int plainFrom = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\') {
                continue;
            }
            text.append(value, plainFrom, i).append('\\');
            switch (c) {
                case '"', '\\' -> text.append(c);
                case '\n' -> text.append('n');
                case '\r' -> text.append('r');
                case '\t' -> text.append('t');
                case '\b' -> text.append('b');
                case '\f' -> text.append('f');
                default -> text.append("u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
            plainFrom = i + 1;
        }
        text.append(value, plainFrom, value.length());
    }
}
