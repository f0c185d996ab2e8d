package io.risklimits.decision;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An independent, sequential model of the contract's limit and reversal rules, written without the
 * production code: one scope key's history as a plain list of counted amounts with their hour, a window
 * as "buckets since" (rolling windows by hours, calendar windows from midnight in the model's zone), a
 * per-transaction cap as a comparison with the amount alone, a reversal as taking from its original's
 * entry. An authorization is one entry, listed at every scope key it counts at (its business key, its
 * entity, and its account's channel and its account when it names one), so what a reversal takes from
 * it is taken at each of them, whatever account the reversal names. The one oracle of those rules for
 * the tests that check decisions against them (the decider's over Kafka, the backtest's replay): a rule
 * the contract adds is modelled here once.
 *
 * <p>A business key is written {@code entity:channel:direction}; it is also the name of its own scope
 * key. The other scope keys are written {@code scope:owner:channel:direction} ({@link #scopeKeys}).
 */
public final class ReferenceModel {

    /** Every window, in the order the contract checks them. */
    public static final List<String> WINDOWS = List.of("txn", "24h", "7d", "30d", "day", "week", "month");

    public static final List<String> ROLLING_WINDOWS = List.of("24h", "7d", "30d");
    public static final Map<String, Integer> ROLLING_WINDOW_HOURS = Map.of("24h", 24, "7d", 168, "30d", 720);

    /** The scopes in the order the contract checks them. */
    public static final List<String> SCOPES = List.of("key", "entity", "account_channel", "account");

    private final ZoneId zone;

    /** Calendar windows in the zone. */
    public ReferenceModel(ZoneId zone) {
        this.zone = zone;
    }

    /** The first hour of the window that ends with the bucket; a calendar window from midnight in the zone. */
    public Instant since(String window, Instant bucket) {
        LocalDate day = bucket.atZone(zone).toLocalDate();
        return switch (window) {
            case "24h", "7d", "30d" -> bucket.minus(Duration.ofHours(ROLLING_WINDOW_HOURS.get(window) - 1));
            case "day" -> day.atStartOfDay(zone).toInstant();
            case "week" ->
                day.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY))
                        .atStartOfDay(zone)
                        .toInstant();
            case "month" -> day.withDayOfMonth(1).atStartOfDay(zone).toInstant();
            default -> throw new IllegalArgumentException(window);
        };
    }

    /** The maximum amount and count of a window in force ({@code txn}: its count is ignored). */
    public record Cap(long amount, long count) {}

    /**
     * @param usage the business key's usage before the event, per window
     * @param released for RELEASED: {amount, count}; null otherwise
     * @param remaining for a reversal that found an approved original; null otherwise
     * @param scopes for an authorization, the usage before it at each scope other than the key's with a
     *     window in force, by scope; empty otherwise
     */
    public record Expected(
            String decision,
            String reason,
            Map<String, long[]> usage,
            long[] released,
            Long remaining,
            Map<String, Map<String, long[]>> scopes) {

        public Expected(String decision, String reason, Map<String, long[]> usage) {
            this(decision, reason, usage, null, null, Map.of());
        }

        public Expected(String decision, String reason, Map<String, long[]> usage, long[] released, Long remaining) {
            this(decision, reason, usage, released, remaining, Map.of());
        }
    }

    /** One counted authorization (or a share of a history bucket): still counted while remaining > 0. */
    private static final class Counted {
        final Instant bucket;
        long remaining;

        Counted(Instant bucket, long remaining) {
            this.bucket = bucket;
            this.remaining = remaining;
        }
    }

    /** What a reversal may name: an event decided under a key. */
    private record Filed(boolean authorization, String decision, Counted counted) {}

    private final Map<String, List<Counted>> countedByScopeKey = new HashMap<>();
    private final Map<String, Filed> filed = new HashMap<>();

    /**
     * Counts a bucket of one scope key's history (a business key, or a key of {@link #scopeKeys}) there
     * alone: {@code count} approvals that sum to {@code amount}.
     */
    public void history(String key, Instant bucket, long amount, long count) {
        for (int i = 0; i < count; i++) {
            // split the bucket total into count events; only the sums matter
            long share = amount / count + (i == 0 ? amount % count : 0);
            countedByScopeKey.computeIfAbsent(key, k -> new ArrayList<>()).add(new Counted(bucket, share));
        }
    }

    /**
     * The scope keys an event of the business key counts at, by scope in the order they are checked: the
     * key and its entity, and with an account its account's channel and the account.
     *
     * @param account null when the event names none
     */
    public static Map<String, String> scopeKeys(String key, String account) {
        String[] parts = key.split(":");
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("key", key);
        keys.put("entity", String.join(":", "entity", parts[0], "*", parts[2]));
        if (account != null) {
            keys.put("account_channel", String.join(":", "account_channel", account, parts[1], parts[2]));
            keys.put("account", String.join(":", "account", account, "*", parts[2]));
        }
        return keys;
    }

    /**
     * Decides one authorization of the key at the given bucket and, when approved, counts it at the key
     * alone: the key's own rules, for a model of one key (whose name need not be a business key's).
     */
    public Expected decide(String key, String dedupeId, long amount, Instant bucket, Map<String, Cap> caps) {
        return decideAt(key, Map.of("key", key), dedupeId, amount, bucket, Map.of("key", caps));
    }

    /**
     * Decides one authorization of the key, naming the account (or null), at the given bucket against the
     * caps of each scope (a scope absent or empty: nothing limits it there), and when approved counts it at
     * every scope key it belongs to. Scopes are checked in the contract's order, windows in theirs within
     * each; the first that fails names the reason, prefixed with its scope unless it is the key's.
     */
    public Expected decide(
            String key,
            String account,
            String dedupeId,
            long amount,
            Instant bucket,
            Map<String, Map<String, Cap>> caps) {
        return decideAt(key, scopeKeys(key, account), dedupeId, amount, bucket, caps);
    }

    private Expected decideAt(
            String key,
            Map<String, String> scopeKeys,
            String dedupeId,
            long amount,
            Instant bucket,
            Map<String, Map<String, Cap>> caps) {
        Map<String, Map<String, long[]>> usageByScope = new LinkedHashMap<>();
        scopeKeys.forEach((scope, scopeKey) -> usageByScope.put(scope, usage(scopeKey, bucket)));
        Map<String, Map<String, long[]>> reportedScopes = new LinkedHashMap<>();
        usageByScope.forEach((scope, usage) -> {
            if (!scope.equals("key") && !caps.getOrDefault(scope, Map.of()).isEmpty()) {
                reportedScopes.put(scope, usage);
            }
        });
        Map<String, long[]> keyUsage = usageByScope.get("key");
        for (Map.Entry<String, Map<String, long[]>> scope : usageByScope.entrySet()) {
            String reason = firstFailure(amount, scope.getValue(), caps.getOrDefault(scope.getKey(), Map.of()));
            if (reason != null) {
                String prefix =
                        scope.getKey().equals("key") ? "" : scope.getKey().toUpperCase() + "_";
                filed.put(key + "/" + dedupeId, new Filed(true, "REJECTED", null));
                return new Expected("REJECTED", prefix + reason, keyUsage, null, null, reportedScopes);
            }
        }
        Counted counted = new Counted(bucket, amount);
        scopeKeys
                .values()
                .forEach(scopeKey -> countedByScopeKey
                        .computeIfAbsent(scopeKey, k -> new ArrayList<>())
                        .add(counted));
        filed.put(key + "/" + dedupeId, new Filed(true, "APPROVED", counted));
        return new Expected("APPROVED", null, keyUsage, null, null, reportedScopes);
    }

    /** The reason of the first window of one scope that does not admit the amount, without a scope prefix; null if all do. */
    private static String firstFailure(long amount, Map<String, long[]> usage, Map<String, Cap> caps) {
        for (String window : WINDOWS) {
            Cap cap = caps.get(window);
            if (cap == null) {
                continue;
            }
            String label = window.toUpperCase();
            if (window.equals("txn")) {
                if (amount > cap.amount()) {
                    return "LIMIT_TXN_AMOUNT";
                }
                continue;
            }
            long[] used = usage.get(window);
            if (used[0] + amount > cap.amount()) {
                return "LIMIT_" + label + "_AMOUNT";
            }
            if (used[1] + 1 > cap.count()) {
                return "LIMIT_" + label + "_COUNT";
            }
        }
        return null;
    }

    /**
     * Files an INVALID event under its key: a reversal naming it finds an original that is not approved.
     * Returns its decision, which has no usage.
     */
    public Expected invalid(String key, String dedupeId) {
        filed.put(key + "/" + dedupeId, new Filed(true, "INVALID", null));
        return new Expected("INVALID", "INVALID_REQUEST", Map.of());
    }

    /**
     * Decides one reversal of the key, naming its original by dedupe_id: released at every scope key the
     * original was counted at, whatever account the reversal itself names.
     */
    public Expected reverse(String key, String dedupeId, String reverses, long amount, Instant bucket) {
        Map<String, long[]> usage = usage(key, bucket);
        Filed original = filed.get(key + "/" + reverses);
        Expected expected;
        if (original == null) {
            expected = new Expected("REJECTED", "ORIGINAL_NOT_FOUND", usage);
        } else if (!original.authorization() || !original.decision().equals("APPROVED")) {
            expected = new Expected("REJECTED", "ORIGINAL_NOT_APPROVED", usage);
        } else if (amount > original.counted().remaining) {
            expected = new Expected("REJECTED", "EXCEEDS_REMAINING", usage, null, original.counted().remaining);
        } else {
            original.counted().remaining -= amount;
            long count = original.counted().remaining == 0 ? 1 : 0;
            expected = new Expected("RELEASED", null, usage, new long[] {amount, count}, original.counted().remaining);
        }
        filed.put(key + "/" + dedupeId, new Filed(false, expected.decision(), null));
        return expected;
    }

    /**
     * Files an authorization decided before, as it was decided (APPROVED, REJECTED), without deciding it
     * again: counted when approved.
     */
    public void storedAuthorization(String key, String dedupeId, long amount, Instant bucket, String decision) {
        Counted counted = null;
        if (decision.equals("APPROVED")) {
            counted = new Counted(bucket, amount);
            countedByScopeKey.computeIfAbsent(key, k -> new ArrayList<>()).add(counted);
        }
        filed.put(key + "/" + dedupeId, new Filed(true, decision, counted));
    }

    /**
     * Files a reversal decided before, as it was decided, without deciding it again: when RELEASED, the
     * amount is taken from its original. Returns the count it released (1 when that left nothing of the
     * original, else 0).
     */
    public long storedReversal(String key, String dedupeId, String reverses, long amount, String decision) {
        long count = 0;
        if (decision.equals("RELEASED")) {
            Counted original = filed.get(key + "/" + reverses).counted();
            original.remaining -= amount;
            count = original.remaining == 0 ? 1 : 0;
        }
        filed.put(key + "/" + dedupeId, new Filed(false, decision, null));
        return count;
    }

    private Map<String, long[]> usage(String scopeKey, Instant bucket) {
        Map<String, long[]> usage = new LinkedHashMap<>();
        for (String window : WINDOWS.subList(1, WINDOWS.size())) {
            Instant since = since(window, bucket);
            long sum = 0;
            long count = 0;
            for (Counted counted : countedByScopeKey.getOrDefault(scopeKey, List.of())) {
                if (!counted.bucket.isBefore(since) && counted.remaining > 0) {
                    sum += counted.remaining;
                    count++;
                }
            }
            usage.put(window, new long[] {sum, count});
        }
        return usage;
    }
}
