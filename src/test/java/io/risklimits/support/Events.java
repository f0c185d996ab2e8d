package io.risklimits.support;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import tools.jackson.databind.json.JsonMapper;

/** Transaction events as producers would write them. */
public final class Events {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Events() {}

    public static Map<String, Object> event(
            UUID dedupeId, UUID entityId, String channel, String direction, long amount) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("dedupe_id", dedupeId.toString());
        event.put("entity_id", entityId.toString());
        event.put("channel", channel);
        event.put("direction", direction);
        event.put("amount", amount);
        event.put("currency", "USD");
        event.put("occurred_at", Instant.now().toString());
        return event;
    }

    /** A reversal of the authorization filed as reverses, under the given business key. */
    public static Map<String, Object> reversal(
            UUID dedupeId, UUID entityId, String channel, String direction, long amount, UUID reverses) {
        Map<String, Object> event = event(dedupeId, entityId, channel, direction, amount);
        event.put("type", "REVERSAL");
        event.put("reverses", reverses.toString());
        return event;
    }

    /** The event naming the account, or as it was when the account is null. */
    public static Map<String, Object> withAccount(Map<String, Object> event, UUID account) {
        if (account != null) {
            event.put("account_id", account.toString());
        }
        return event;
    }

    public static byte[] json(Map<String, Object> event) {
        return JSON.writeValueAsBytes(event);
    }

    public static String businessKey(UUID entityId, String channel, String direction) {
        return entityId + ":" + channel + ":" + direction;
    }
}
