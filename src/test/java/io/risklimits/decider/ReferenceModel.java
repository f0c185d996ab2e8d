package io.risklimits.decider;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An independent, sequential model of the contract's limit rules, written without the production
 * code: one key's history as a plain list of (bucket, amount), a window as "buckets since".
 */
final class ReferenceModel {

    static final List<String> WINDOWS = List.of("24h", "7d", "30d");
    static final Map<String, Integer> WINDOW_HOURS = Map.of("24h", 24, "7d", 168, "30d", 720);

    record Cap(long amount, long count) {}

    record Expected(String decision, String reason, Map<String, long[]> usage) {}

    private final Map<String, List<Map.Entry<Instant, Long>>> approvedByKey = new HashMap<>();

    void history(String key, Instant bucket, long amount, long count) {
        for (int i = 0; i < count; i++) {
            // split the bucket total into count events; only the sums matter
            long share = amount / count + (i == 0 ? amount % count : 0);
            approvedByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(Map.entry(bucket, share));
        }
    }

    /** Decides one event of the key at the given bucket and, when approved, remembers it. */
    Expected decide(String key, long amount, Instant bucket, Map<String, Cap> caps) {
        Map<String, long[]> usage = new LinkedHashMap<>();
        for (String window : WINDOWS) {
            Instant since = bucket.minus(Duration.ofHours(WINDOW_HOURS.get(window) - 1));
            long sum = 0;
            long count = 0;
            for (Map.Entry<Instant, Long> approved : approvedByKey.getOrDefault(key, List.of())) {
                if (!approved.getKey().isBefore(since)) {
                    sum += approved.getValue();
                    count++;
                }
            }
            usage.put(window, new long[] {sum, count});
        }
        for (String window : WINDOWS) {
            Cap cap = caps.get(window);
            if (cap == null) {
                continue;
            }
            long[] used = usage.get(window);
            String label = window.toUpperCase();
            if (used[0] + amount > cap.amount()) {
                return new Expected("REJECTED", "LIMIT_" + label + "_AMOUNT", usage);
            }
            if (used[1] + 1 > cap.count()) {
                return new Expected("REJECTED", "LIMIT_" + label + "_COUNT", usage);
            }
        }
        approvedByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(Map.entry(bucket, amount));
        return new Expected("APPROVED", null, usage);
    }
}
