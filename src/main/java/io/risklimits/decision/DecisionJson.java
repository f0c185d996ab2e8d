package io.risklimits.decision;

import java.io.ByteArrayOutputStream;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON of a decision message (schemas/decision.schema.json) and of the usage, limits, scopes
 * and errors columns of the request log, which share the message's shapes.
 */
public final class DecisionJson {

    public static final int SCHEMA_VERSION = 3;
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    // Most keys share a few sets of limits, and each decision writes its limits twice (message and
    // request log row): their text is kept, for as many distinct sets as a limit table plausibly has.
    private static final int MAX_LIMITS_TEXTS = 1024;
    private static final Map<Limits, String> LIMITS_TEXTS = new ConcurrentHashMap<>();

    private DecisionJson() {}

    // Written with a streaming generator rather than a tree: one per decision, on the decider's hot
    // path, where a tree is a map per object to throw away.
    public static byte[] message(Decision decision) {
        EventFields fields = decision.fields();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(640);
        try (JsonGenerator json = MAPPER.createGenerator(bytes)) {
            json.writeStartObject();
            json.writeStringProperty("dedupe_id", decision.dedupeId().toString());
            json.writeStringProperty(
                    "entity_id",
                    fields.entityId() == null ? null : fields.entityId().toString());
            json.writeStringProperty("channel", fields.channel());
            json.writeStringProperty(
                    "direction",
                    fields.direction() == null ? null : fields.direction().name());
            writeNumberOrNull(json, "amount", fields.amount());
            json.writeStringProperty("currency", fields.currency());
            json.writeStringProperty(
                    "type", fields.type() == null ? null : fields.type().name());
            if (fields.reverses() != null) {
                json.writeStringProperty("reverses", fields.reverses().toString());
            }
            if (fields.originalId() != null) {
                json.writeStringProperty("original", fields.originalId().toString());
            }
            if (fields.accountId() != null) {
                json.writeStringProperty("account_id", fields.accountId().toString());
            }
            json.writeStringProperty("decision", decision.verdict().name());
            json.writeStringProperty(
                    "reason",
                    decision.reason() == null ? null : decision.reason().name());
            if (decision.released() != null) {
                json.writeObjectPropertyStart("released");
                json.writeNumberProperty("amount", decision.released().amount());
                json.writeNumberProperty("count", decision.released().count());
                json.writeEndObject();
            }
            if (decision.remaining() != null) {
                json.writeNumberProperty("remaining", decision.remaining());
            }
            if (decision.captured() != null) {
                json.writeNumberProperty("captured", decision.captured());
                json.writeNumberProperty("over_captured", decision.overCaptured());
            }
            ConversionJson.write(json, decision.conversion());
            if (decision.holdExpiresAt() != null) {
                json.writeStringProperty("hold_expires_at", InstantText.of(decision.holdExpiresAt()));
            }
            if (!decision.dedupeConflict().isEmpty()) {
                json.writeName("dedupe_conflict");
                json.writeStartArray();
                for (String field : decision.dedupeConflict()) {
                    json.writeString(field);
                }
                json.writeEndArray();
            }
            if (decision.shadow() != null) {
                json.writeObjectPropertyStart("shadow");
                json.writeStringProperty("decision", decision.shadow().verdict().name());
                json.writeStringProperty(
                        "reason",
                        decision.shadow().reason() == null
                                ? null
                                : decision.shadow().reason().name());
                json.writeEndObject();
            }
            if (decision.verdict() == Verdict.INVALID) {
                json.writeName("errors");
                writeErrors(json, decision.errors());
            } else if (decision.verdict() == Verdict.EXPIRED) {
                // made by the service, for no event: no usage read, no limits applied
                json.writeStringProperty("bucket_ts", InstantText.of(decision.bucketTs()));
            } else {
                json.writeName("usage");
                json.writeRawValue(usage(decision));
                json.writeName("limits");
                json.writeRawValue(limits(decision.limits()));
                if (!decision.scopes().isEmpty()) {
                    json.writeName("scopes");
                    json.writeRawValue(scopes(decision));
                }
                json.writeStringProperty("bucket_ts", InstantText.of(decision.bucketTs()));
                writeAvailable(json, decision.available());
            }
            json.writeStringProperty("decided_at", InstantText.of(decision.decidedAt()));
            json.writeBooleanProperty("replayed", decision.replayed());
            json.writeNumberProperty("schema_version", SCHEMA_VERSION);
            json.writeEndObject();
        }
        return bytes.toByteArray();
    }

    /**
     * The usage document, as the message carries it and the request log stores it: every window with a
     * limit in force that counts usage, a calendar window with when it starts again ({@link UsageJson}).
     */
    public static String usage(Usage usage, Limits limits) {
        return UsageJson.text(usage, limits);
    }

    /** The decision's usage document ({@link #usage(Usage, Limits)}), written once per decision. */
    public static String usage(Decision decision) {
        return decision.documents().usage(() -> usage(decision.usage(), decision.limits()));
    }

    /** The usage of a stored document; a window it does not report (no limit in force) reads as zero. */
    public static Usage usage(String json) {
        return UsageJson.usage(MAPPER.readTree(json));
    }

    /** The enforced limits' document (a shadow set is reported by its outcome only). */
    public static String limits(Limits limits) {
        String text = LIMITS_TEXTS.get(limits);
        if (text == null) {
            text = text(json -> writeLimits(json, limits));
            if (LIMITS_TEXTS.size() >= MAX_LIMITS_TEXTS) {
                LIMITS_TEXTS.clear();
            }
            LIMITS_TEXTS.put(limits, text);
        }
        return text;
    }

    public static Limits limits(String json) {
        return limits(MAPPER.readTree(json));
    }

    private static Limits limits(JsonNode node) {
        Map<Window, Limit> byWindow = new EnumMap<>(Window.class);
        for (Window window : Window.values()) {
            JsonNode limit = node.get(window.label());
            if (limit != null) {
                byWindow.put(window, new Limit(longOrNull(limit.get("amount")), longOrNull(limit.get("count"))));
            }
        }
        return new Limits(byWindow);
    }

    /**
     * The scopes document, as the message carries it and the request log stores it: each scope in its
     * order, its usage and its limits in the shapes of the key's; null when there are none, so a
     * decision without scopes stores and publishes none.
     */
    public static String scopes(List<ScopeCheck> scopes) {
        if (scopes.isEmpty()) {
            return null;
        }
        StringBuilder text = new StringBuilder(256).append('{');
        for (ScopeCheck check : scopes) {
            if (text.length() > 1) {
                text.append(',');
            }
            text.append('"')
                    .append(check.scope().label())
                    .append("\":{\"usage\":")
                    .append(usage(check.usage(), check.limits()))
                    .append(",\"limits\":")
                    .append(limits(check.limits()))
                    .append('}');
        }
        return text.append('}').toString();
    }

    /** The decision's scopes document ({@link #scopes(List)}), written once per decision; null without scopes. */
    public static String scopes(Decision decision) {
        return decision.scopes().isEmpty() ? null : decision.documents().scopes(() -> scopes(decision.scopes()));
    }

    /** The scopes of a stored document, in their order; none for a null one. */
    public static List<ScopeCheck> scopes(String json) {
        if (json == null) {
            return List.of();
        }
        List<ScopeCheck> scopes = new ArrayList<>();
        for (Map.Entry<String, JsonNode> scope : MAPPER.readTree(json).properties()) {
            JsonNode check = scope.getValue();
            scopes.add(new ScopeCheck(
                    Scope.fromLabel(scope.getKey()),
                    UsageJson.usage(check.required("usage")),
                    limits(check.required("limits"))));
        }
        return scopes;
    }

    public static String errors(List<FieldError> errors) {
        return text(json -> writeErrors(json, errors));
    }

    public static List<FieldError> errors(String json) {
        List<FieldError> errors = new ArrayList<>();
        for (JsonNode error : MAPPER.readTree(json)) {
            errors.add(new FieldError(
                    error.required("field").stringValue(),
                    error.required("message").stringValue()));
        }
        return errors;
    }

    private static String text(Consumer<JsonGenerator> writer) {
        StringWriter text = new StringWriter(160);
        try (JsonGenerator json = MAPPER.createGenerator(text)) {
            writer.accept(json);
        }
        return text.toString();
    }

    // the windows in force only; txn has an amount alone, its maximum count being ignored
    private static void writeLimits(JsonGenerator json, Limits limits) {
        json.writeStartObject();
        for (Map.Entry<Window, Limit> entry : limits.byWindow().entrySet()) {
            Window window = entry.getKey();
            json.writeObjectPropertyStart(window.label());
            writeNumberOrNull(json, "amount", entry.getValue().maxAmount());
            if (window.countsUsage()) {
                writeNumberOrNull(json, "count", entry.getValue().maxCount());
            }
            json.writeEndObject();
        }
        json.writeEndObject();
    }

    private static void writeAvailable(JsonGenerator json, Available available) {
        if (available != null) {
            json.writeObjectPropertyStart("available");
            json.writeNumberProperty("amount", available.amount());
            writeNumberOrNull(json, "count", available.count());
            json.writeStringProperty("scope", available.scope().label());
            json.writeStringProperty("window", available.window().label());
            json.writeEndObject();
        }
    }

    private static void writeErrors(JsonGenerator json, List<FieldError> errors) {
        json.writeStartArray();
        for (FieldError error : errors) {
            json.writeStartObject();
            json.writeStringProperty("field", error.field());
            json.writeStringProperty("message", error.message());
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    private static void writeNumberOrNull(JsonGenerator json, String name, Long value) {
        if (value == null) {
            json.writeNullProperty(name);
        } else {
            json.writeNumberProperty(name, value);
        }
    }

    private static Long longOrNull(JsonNode node) {
        return node == null || node.isNull() ? null : node.longValue();
    }
}
