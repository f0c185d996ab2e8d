package io.risklimits.decision;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON of a decision message (schemas/decision.schema.json) and of the usage, limits and
 * errors columns of the request log, which share the message's shapes.
 */
public final class DecisionJson {

    public static final int SCHEMA_VERSION = 1;
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private DecisionJson() {}

    public static byte[] message(Decision decision) {
        EventFields fields = decision.fields();
        ObjectNode node = MAPPER.createObjectNode();
        node.put("dedupe_id", decision.dedupeId().toString());
        node.put(
                "entity_id",
                fields.entityId() == null ? null : fields.entityId().toString());
        node.put("channel", fields.channel());
        node.put(
                "direction",
                fields.direction() == null ? null : fields.direction().name());
        node.put("amount", fields.amount());
        node.put("currency", fields.currency());
        node.put("decision", decision.verdict().name());
        node.put("reason", decision.reason() == null ? null : decision.reason().name());
        if (decision.verdict() == Verdict.INVALID) {
            node.set("errors", errorsNode(decision.errors()));
        } else {
            node.set("usage", usageNode(decision.usage()));
            node.set("limits", limitsNode(decision.limits()));
            node.put("bucket_ts", decision.bucketTs().toString());
        }
        node.put("decided_at", decision.decidedAt().toString());
        node.put("replayed", decision.replayed());
        node.put("schema_version", SCHEMA_VERSION);
        return MAPPER.writeValueAsBytes(node);
    }

    public static String usage(Usage usage) {
        return usageNode(usage).toString();
    }

    public static Usage usage(String json) {
        JsonNode node = MAPPER.readTree(json);
        Map<Window, Tally> byWindow = new EnumMap<>(Window.class);
        for (Window window : Window.values()) {
            JsonNode tally = node.required(window.label());
            byWindow.put(
                    window,
                    new Tally(
                            tally.required("amount").longValue(),
                            tally.required("count").longValue()));
        }
        return new Usage(byWindow);
    }

    public static String limits(Limits limits) {
        return limitsNode(limits).toString();
    }

    public static Limits limits(String json) {
        JsonNode node = MAPPER.readTree(json);
        Map<Window, Limit> byWindow = new EnumMap<>(Window.class);
        for (Window window : Window.values()) {
            JsonNode limit = node.required(window.label());
            byWindow.put(window, new Limit(longOrNull(limit.get("amount")), longOrNull(limit.get("count"))));
        }
        return new Limits(byWindow);
    }

    public static String errors(List<FieldError> errors) {
        return errorsNode(errors).toString();
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

    private static ObjectNode usageNode(Usage usage) {
        ObjectNode node = MAPPER.createObjectNode();
        for (Window window : Window.values()) {
            Tally tally = usage.of(window);
            node.putObject(window.label()).put("amount", tally.amount()).put("count", tally.count());
        }
        return node;
    }

    private static ObjectNode limitsNode(Limits limits) {
        ObjectNode node = MAPPER.createObjectNode();
        for (Window window : Window.values()) {
            Limit limit = limits.of(window);
            node.putObject(window.label()).put("amount", limit.maxAmount()).put("count", limit.maxCount());
        }
        return node;
    }

    private static ArrayNode errorsNode(List<FieldError> errors) {
        ArrayNode node = MAPPER.createArrayNode();
        errors.forEach(error -> node.addObject().put("field", error.field()).put("message", error.message()));
        return node;
    }

    private static Long longOrNull(JsonNode node) {
        return node == null || node.isNull() ? null : node.longValue();
    }
}
