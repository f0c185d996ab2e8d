package io.risklimits.decision;

import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The usage document of a decision (the key's, and each scope's in its "scopes"): per window with a limit
 * in force that counts usage, its amount and count, and for a calendar window when it starts again
 * ({@code resets_at}), which is stored with the usage so that a replay says what the decision said.
 */
final class UsageJson {

    private UsageJson() {}

    /**
     * Written without a generator ({@link JsonObjectText}): it is a few numbers under fixed names, written
     * twice per decision on the decider's hot path (DecisionJsonTest holds it to the text Jackson writes).
     */
    static String text(Usage usage, Limits limits) {
        JsonObjectText json = new JsonObjectText(128);
        for (Window window : Window.USAGE_WINDOWS) {
            if (!limits.inForce(window)) {
                continue;
            }
            Tally tally = usage.of(window);
            json.startObject(window.label()).number("amount", tally.amount()).number("count", tally.count());
            Instant reset = usage.resetOf(window);
            if (reset != null) {
                json.string("resets_at", InstantText.of(reset));
            }
            json.endObject();
        }
        return json.close();
    }

    /** The usage of a document; a window it does not report (no limit in force) reads as zero. */
    static Usage usage(JsonNode node) {
        Map<Window, Tally> byWindow = new EnumMap<>(Window.class);
        Map<Window, Instant> resets = new EnumMap<>(Window.class);
        for (Window window : Window.values()) {
            JsonNode tally = node.get(window.label());
            if (window.countsUsage() && tally != null) {
                byWindow.put(
                        window,
                        new Tally(
                                tally.required("amount").longValue(),
                                tally.required("count").longValue()));
                JsonNode reset = tally.get("resets_at");
                if (reset != null) {
                    resets.put(window, Instant.parse(reset.stringValue()));
                }
            }
        }
        return new Usage(byWindow, resets);
    }
}
