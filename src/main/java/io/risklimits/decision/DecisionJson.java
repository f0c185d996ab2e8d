package io.risklimits.decision;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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

    /** The decision message, in UTF-8. */
    public static byte[] message(Decision decision) {
        EventFields fields = decision.fields();
        JsonObjectText json = new JsonObjectText(768)
                .string("dedupe_id", decision.dedupeId().toString())
                .string(
                        "entity_id",
                        fields.entityId() == null ? null : fields.entityId().toString())
                .string("channel", fields.channel())
                .string(
                        "direction",
                        fields.direction() == null ? null : fields.direction().name())
                .number("amount", fields.amount())
                .string("currency", fields.currency())
                .string("type", fields.type() == null ? null : fields.type().name());
        if (fields.reverses() != null) {
            json.string("reverses", fields.reverses().toString());
        }
        if (fields.originalId() != null) {
            json.string("original", fields.originalId().toString());
        }
        if (fields.accountId() != null) {
            json.string("account_id", fields.accountId().toString());
        }
        json.string("decision", decision.verdict().name())
                .string(
                        "reason",
                        decision.reason() == null ? null : decision.reason().name());
        if (decision.released() != null) {
            json.startObject("released")
                    .number("amount", decision.released().amount())
                    .number("count", decision.released().count())
                    .endObject();
        }
        if (decision.remaining() != null) {
            json.number("remaining", decision.remaining());
        }
        if (decision.captured() != null) {
            json.number("captured", decision.captured()).number("over_captured", decision.overCaptured());
        }
        ConversionJson.write(json, decision.conversion());
        if (decision.holdExpiresAt() != null) {
            json.string("hold_expires_at", InstantText.of(decision.holdExpiresAt()));
        }
        if (!decision.dedupeConflict().isEmpty()) {
            json.startArray("dedupe_conflict");
            decision.dedupeConflict().forEach(json::element);
            json.endArray();
        }
        if (decision.shadow() != null) {
            json.startObject("shadow")
                    .string("decision", decision.shadow().verdict().name())
                    .string(
                            "reason",
                            decision.shadow().reason() == null
                                    ? null
                                    : decision.shadow().reason().name())
                    .endObject();
        }
        if (decision.verdict() == Verdict.INVALID) {
            json.raw("errors", errors(decision.errors()));
        } else if (decision.verdict() == Verdict.EXPIRED) {
            // made by the service, for no event: no usage read, no limits applied
            json.string("bucket_ts", InstantText.of(decision.bucketTs()));
        } else {
            json.raw("usage", usage(decision)).raw("limits", limits(decision.limits()));
            if (!decision.scopes().isEmpty()) {
                json.raw("scopes", scopes(decision));
            }
            json.string("bucket_ts", InstantText.of(decision.bucketTs()));
            writeAvailable(json, decision.available());
        }
        return json.string("decided_at", InstantText.of(decision.decidedAt()))
                .bool("replayed", decision.replayed())
                .number("schema_version", SCHEMA_VERSION)
                .bytes();
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
            text = limitsText(limits);
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
        JsonObjectText json = new JsonObjectText(256);
        for (ScopeCheck check : scopes) {
            json.startObject(check.scope().label())
                    .raw("usage", usage(check.usage(), check.limits()))
                    .raw("limits", limits(check.limits()))
                    .endObject();
        }
        return json.close();
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

    /** The errors document: an array of the fields' errors, in their order. */
    public static String errors(List<FieldError> errors) {
        StringBuilder text = new StringBuilder(64 * errors.size() + 2).append('[');
        for (FieldError error : errors) {
            if (text.length() > 1) {
                text.append(',');
            }
            text.append(new JsonObjectText(64)
                    .string("field", error.field())
                    .string("message", error.message())
                    .close());
        }
        return text.append(']').toString();
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

    // the windows in force only; txn has an amount alone, its maximum count being ignored
    private static String limitsText(Limits limits) {
        JsonObjectText json = new JsonObjectText(160);
        for (Map.Entry<Window, Limit> entry : limits.byWindow().entrySet()) {
            Window window = entry.getKey();
            json.startObject(window.label()).number("amount", entry.getValue().maxAmount());
            if (window.countsUsage()) {
                json.number("count", entry.getValue().maxCount());
            }
            json.endObject();
        }
        return json.close();
    }

    private static void writeAvailable(JsonObjectText json, Available available) {
        if (available != null) {
            json.startObject("available")
                    .number("amount", available.amount())
                    .number("count", available.count())
                    .string("scope", available.scope().label())
                    .string("window", available.window().label())
                    .endObject();
        }
    }

    private static Long longOrNull(JsonNode node) {
        return node == null || node.isNull() ? null : node.longValue();
    }
}
