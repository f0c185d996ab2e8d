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
     * Written by hand, without a generator: it is a few numbers under fixed names, written twice per
     * decision on the decider's hot path, where setting up a generator costs more than the text itself
     * (DecisionJsonTest holds it to the text Jackson writes).
     */
    static String text(Usage usage, Limits limits) {
        StringBuilder text = new StringBuilder(128).append('{');
        for (Window window : Window.USAGE_WINDOWS) {
            if (!limits.inForce(window)) {
                continue;
            }
            Tally tally = usage.of(window);
            if (text.length() > 1) {
                text.append(',');
            }
            text.append('"')
                    .append(window.label())
                    .append("\":{\"amount\":")
                    .append(tally.amount())
                    .append(",\"count\":")
                    .append(tally.count());
            Instant reset = usage.resetOf(window);
            if (reset != null) {
                text.append(",\"resets_at\":\"").append(InstantText.of(reset)).append('"');
            }
            text.append('}');
        }
        return text.append('}').toString();
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
