package io.risklimits.decision;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.Currency;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * An independent, sequential model of the contract's limit, reversal and hold rules, written without the
 * production code: one scope key's history as a plain list of counted authorizations, each a list of
 * amounts with the hour they were counted in; a window as "buckets since" (rolling windows by hours,
 * calendar windows from midnight in the model's zone); a per-transaction cap as a comparison with the
 * amount alone; a release as taking from the authorization's parts, the most recently counted first. An
 * authorization is one entry, listed at every scope key it counts at (its business key, its entity, and
 * its account's channel and its account when it names one), so what a release takes from it is taken at
 * each of them, whatever account the follow-up names. The one oracle of those rules for the tests that
 * check decisions against them (the decider's over Kafka, the backtest's replay): a rule the contract
 * adds is modelled here once.
 *
 * <p>Holds: an approved authorization on a hold channel, or one naming its expiry, is a hold until its
 * expiry. What is still counted of an authorization is the sum of its parts less what was released from
 * them; what a hold holds, while open, is that less what was captured. A decision made at or after a
 * hold's expiry never counts it: the caller expires the holds due at a decision's instant before it
 * ({@link #expire}), and a follow-up naming a hold due at its instant expires it first.
 *
 * <p>A business key is written {@code entity:channel:direction}; it is also the name of its own scope
 * key. The other scope keys are written {@code scope:owner:channel:direction} ({@link #scopeKeys}).
 *
 * <p>Currencies: every limit and usage figure is in the limit currency. An event in another currency counts
 * its amount times the latest rate ({@link #rate}) valid at its decision, in the limit currency's minor
 * units (the ISO 4217 exponents), rounded up; refused NO_FX_RATE without such a rate and FX_RATE_STALE when
 * that rate is older than the maximum age. A follow-up of an approved authorization must be in its
 * currency (else CURRENCY_MISMATCH, nothing changes) and is judged in that currency, against what is left
 * of the authorization's own amount (its own figures: what is still counted of it and what captures took,
 * kept beside the limit-currency ones), then converted at its rate: a reversal rounded down, the one that
 * leaves nothing of the authorization in its own currency giving back all that is still counted; a capture
 * and an increment rounded up.
 */
public final class ReferenceModel {

    /** Every window, in the order the contract checks them. */
    public static final List<String> WINDOWS = List.of("txn", "24h", "7d", "30d", "day", "week", "month");

    public static final List<String> ROLLING_WINDOWS = List.of("24h", "7d", "30d");
    public static final Map<String, Integer> ROLLING_WINDOW_HOURS = Map.of("24h", 24, "7d", 168, "30d", 720);

    /** The scopes in the order the contract checks them. */
    public static final List<String> SCOPES = List.of("key", "entity", "account_channel", "account");

    private final ZoneId zone;
    private final Set<String> holdChannels;
    private final Duration holdTime;
    private final String limitCurrency;
    private final Duration fxMaxAge;
    // by currency, by valid_from: limit-currency units worth one unit of the currency
    private final Map<String, TreeMap<Instant, BigDecimal>> rates = new HashMap<>();

    /** Calendar windows in the zone; no channel's authorizations are holds unless they name an expiry. */
    public ReferenceModel(ZoneId zone) {
        this(zone, Set.of(), Duration.ofDays(7));
    }

    /**
     * @param holdChannels the channels whose approved authorizations are holds (risk.holds.channels)
     * @param holdTime how long a hold lasts when its authorization names no expiry (risk.holds.ttl)
     */
    public ReferenceModel(ZoneId zone, Set<String> holdChannels, Duration holdTime) {
        this(zone, holdChannels, holdTime, "USD", Duration.ofHours(48));
    }

    /**
     * @param limitCurrency the currency of every limit and usage figure (risk.currency)
     * @param fxMaxAge how old the latest rate of a currency may be at a decision (risk.fx.max-age)
     */
    public ReferenceModel(
            ZoneId zone, Set<String> holdChannels, Duration holdTime, String limitCurrency, Duration fxMaxAge) {
        this.zone = zone;
        this.holdChannels = Set.copyOf(holdChannels);
        this.holdTime = holdTime;
        this.limitCurrency = limitCurrency;
        this.fxMaxAge = fxMaxAge;
    }

    /** A rate of the currency from validFrom on, until its next: how many units of the limit currency one is worth. */
    public void rate(String currency, BigDecimal rate, Instant validFrom) {
        rates.computeIfAbsent(currency, c -> new TreeMap<>()).put(validFrom, rate);
    }

    /** The rate a decision converted at, as its fx field names it: the limit currency, the rate, its valid_from. */
    public record Fx(String currency, BigDecimal rate, Instant validFrom) {}

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

    /** An amount counted in an hour bucket. */
    public record HourAmount(Instant hour, long amount) {}

    /**
     * @param usage the business key's usage before the event, per window; empty for INVALID and EXPIRED
     * @param released for RELEASED, EXPIRED and a capture that gave back what was held: {amount, count};
     *     null otherwise
     * @param remaining what is still counted of the original after a reversal that found an approved
     *     original, a capture of an approved authorization or an expiry; null otherwise
     * @param scopes for an authorization, the usage before it at each scope other than the key's with a
     *     window in force, by scope; empty otherwise
     * @param holdExpiresAt an approved hold's expiry, an approved increment's hold's expiry after it, an
     *     expiry's instant; null otherwise
     * @param captured for CAPTURED: what it turned from held into spent; null otherwise
     * @param overCaptured for CAPTURED: what it counted anew; null otherwise
     * @param countedAmount for an event in another currency than the limit currency that was converted: what
     *     it counts (or would, when rejected), gives back, or asks to give back, in the limit currency; for an
     *     expiry of such a hold, what it gave back; null otherwise
     * @param fx the rate countedAmount was converted at; null without one
     */
    public record Expected(
            String decision,
            String reason,
            Map<String, long[]> usage,
            long[] released,
            Long remaining,
            Map<String, Map<String, long[]>> scopes,
            Instant holdExpiresAt,
            Long captured,
            Long overCaptured,
            Long countedAmount,
            Fx fx) {

        public Expected(
                String decision,
                String reason,
                Map<String, long[]> usage,
                long[] released,
                Long remaining,
                Map<String, Map<String, long[]>> scopes,
                Instant holdExpiresAt,
                Long captured,
                Long overCaptured) {
            this(
                    decision,
                    reason,
                    usage,
                    released,
                    remaining,
                    scopes,
                    holdExpiresAt,
                    captured,
                    overCaptured,
                    null,
                    null);
        }

        public Expected(String decision, String reason, Map<String, long[]> usage) {
            this(decision, reason, usage, null, null, Map.of(), null, null, null);
        }

        public Expected(String decision, String reason, Map<String, long[]> usage, long[] released, Long remaining) {
            this(decision, reason, usage, released, remaining, Map.of(), null, null, null);
        }

        /** The same decision, converted: countedAmount at fx; as it is when fx is null (the limit currency). */
        Expected convertedAt(Fx fx, long countedAmount) {
            return fx == null
                    ? this
                    : new Expected(
                            decision,
                            reason,
                            usage,
                            released,
                            remaining,
                            scopes,
                            holdExpiresAt,
                            captured,
                            overCaptured,
                            countedAmount,
                            fx);
        }
    }

    private enum HoldState {
        OPEN,
        CAPTURED,
        EXPIRED,
        RELEASED
    }

    /** An amount counted in an hour for an authorization, and what was released of it since. */
    private static final class Part {
        final Instant hour;
        final long amount;
        long released;

        Part(Instant hour, long amount) {
            this.hour = hour;
            this.amount = amount;
        }

        long counted() {
            return amount - released;
        }
    }

    /**
     * An approved authorization (or a capture without one, or a share of a history bucket) at the scope
     * keys it counts at: its parts in the order they were counted, the hour holding its count of 1 (none
     * once nothing of it is counted), and, for a hold, its expiry, state and what was captured of it.
     */
    private static final class Counted {
        final Map<String, String> scopeKeys;
        final String currency;
        final Fx fx;
        final List<Part> parts = new ArrayList<>();
        Instant countHour;
        Instant expiresAt;
        HoldState state = HoldState.OPEN;
        long captured;
        long authorized;
        // in the authorization's own currency: what is still counted of it, and what captures took
        long ownCounted;
        long ownCaptured;

        /**
         * @param currency the authorization's currency, which its follow-ups must be in
         * @param fx the rate it was converted at, which its follow-ups convert at; null in the limit currency
         */
        Counted(Map<String, String> scopeKeys, Instant hour, long amount, Instant expiresAt, String currency, Fx fx) {
            this(scopeKeys, hour, amount, amount, expiresAt, currency, fx);
        }

        /** @param ownAmount the authorization's amount in its own currency */
        Counted(
                Map<String, String> scopeKeys,
                Instant hour,
                long amount,
                long ownAmount,
                Instant expiresAt,
                String currency,
                Fx fx) {
            this.scopeKeys = scopeKeys;
            this.currency = currency;
            this.fx = fx;
            this.expiresAt = expiresAt;
            this.authorized = amount;
            this.ownCounted = ownAmount;
            add(hour, amount);
        }

        long counted() {
            return parts.stream().mapToLong(Part::counted).sum();
        }

        boolean isHold() {
            return expiresAt != null;
        }

        long held() {
            return isHold() && state == HoldState.OPEN ? Math.max(0, counted() - captured) : 0;
        }

        long ownHeld() {
            return isHold() && state == HoldState.OPEN ? Math.max(0, ownCounted - ownCaptured) : 0;
        }

        boolean dueAt(Instant at) {
            return isHold() && state == HoldState.OPEN && !at.isBefore(expiresAt);
        }

        /** Counts an amount anew in the hour; the count comes back there when nothing was counted. */
        void add(Instant hour, long amount) {
            if (counted() == 0) {
                countHour = hour;
            }
            parts.add(new Part(hour, amount));
        }

        /** Takes the amount off the parts, the latest first; returns {amount, count} given back. */
        long[] release(long amount) {
            boolean wasCounted = counted() > 0;
            long left = amount;
            for (int index = parts.size() - 1; index >= 0 && left > 0; index--) {
                Part part = parts.get(index);
                long taken = Math.min(left, part.counted());
                part.released += taken;
                left -= taken;
            }
            if (left > 0) {
                throw new IllegalStateException("released more than is counted");
            }
            if (wasCounted && counted() == 0) {
                countHour = null;
                return new long[] {amount, 1};
            }
            return new long[] {amount, 0};
        }
    }

    /** What a follow-up may name: an event decided under a key, with what is counted of it when approved. */
    private record Filed(boolean authorization, String decision, Counted counted) {}

    private final Map<String, List<Counted>> countedByScopeKey = new HashMap<>();
    private final Map<String, Filed> filed = new HashMap<>();
    private final Map<String, Expected> expiries = new LinkedHashMap<>();

    /**
     * Counts a bucket of one scope key's history (a business key, or a key of {@link #scopeKeys}) there
     * alone: {@code count} approvals that sum to {@code amount}.
     */
    public void history(String key, Instant bucket, long amount, long count) {
        for (int i = 0; i < count; i++) {
            // split the bucket total into count events; only the sums matter
            long share = amount / count + (i == 0 ? amount % count : 0);
            count(new Counted(Map.of("key", key), bucket, share, null, limitCurrency, null));
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
        return authorizeAt(key, Map.of("key", key), dedupeId, amount, limitCurrency, null, bucket, Map.of("key", caps));
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
        return authorize(key, account, dedupeId, amount, null, bucket, caps);
    }

    /**
     * {@link #decide(String, String, String, long, Instant, Map)} at the decision's instant: approved, it is
     * a hold when it names its expiry or its channel is a hold channel (then it expires the hold time after
     * the decision), else a final spend.
     *
     * @param holdExpiresAt the authorization's hold_expires_at; null when it names none
     * @param decidedAt the decision's instant; its hour is the bucket it is counted in
     */
    public Expected authorize(
            String key,
            String account,
            String dedupeId,
            long amount,
            Instant holdExpiresAt,
            Instant decidedAt,
            Map<String, Map<String, Cap>> caps) {
        return authorize(key, account, dedupeId, amount, limitCurrency, holdExpiresAt, decidedAt, caps);
    }

    /**
     * {@link #authorize(String, String, String, long, Instant, Instant, Map)} of an amount in the currency:
     * in another than the limit currency, converted at the latest rate valid at the decision, rounded up, and
     * decided as that amount, or refused (NO_FX_RATE, FX_RATE_STALE) without counting anything.
     */
    public Expected authorize(
            String key,
            String account,
            String dedupeId,
            long amount,
            String currency,
            Instant holdExpiresAt,
            Instant decidedAt,
            Map<String, Map<String, Cap>> caps) {
        return authorizeAt(key, scopeKeys(key, account), dedupeId, amount, currency, holdExpiresAt, decidedAt, caps);
    }

    private Expected authorizeAt(
            String key,
            Map<String, String> scopeKeys,
            String dedupeId,
            long eventAmount,
            String currency,
            Instant holdExpiresAt,
            Instant decidedAt,
            Map<String, Map<String, Cap>> caps) {
        Instant bucket = hourOf(decidedAt);
        Map<String, Map<String, long[]>> usageByScope = new LinkedHashMap<>();
        scopeKeys.forEach((scope, scopeKey) -> usageByScope.put(scope, usage(scopeKey, bucket)));
        Map<String, Map<String, long[]>> reportedScopes = reported(usageByScope, caps);
        Map<String, long[]> keyUsage = usageByScope.get("key");
        Converted converted = atLatestRate(eventAmount, currency, decidedAt);
        if (converted.refused() != null) {
            filed.put(key + "/" + dedupeId, new Filed(true, "REJECTED", null));
            return new Expected(
                    "REJECTED", converted.refused(), keyUsage, null, null, reportedScopes, null, null, null);
        }
        long amount = converted.amount();
        for (Map.Entry<String, Map<String, long[]>> scope : usageByScope.entrySet()) {
            String reason =
                    firstFailure(amount, amount, true, scope.getValue(), caps.getOrDefault(scope.getKey(), Map.of()));
            if (reason != null) {
                filed.put(key + "/" + dedupeId, new Filed(true, "REJECTED", null));
                return new Expected(
                                "REJECTED",
                                prefixed(scope.getKey(), reason),
                                keyUsage,
                                null,
                                null,
                                reportedScopes,
                                null,
                                null,
                                null)
                        .convertedAt(converted.fx(), amount);
            }
        }
        String[] name = key.split(":");
        Instant expiresAt = holdExpiresAt != null
                ? holdExpiresAt
                : name.length == 3 && holdChannels.contains(name[1]) ? decidedAt.plus(holdTime) : null;
        Counted counted = new Counted(scopeKeys, bucket, amount, eventAmount, expiresAt, currency, converted.fx());
        count(counted);
        filed.put(key + "/" + dedupeId, new Filed(true, "APPROVED", counted));
        return new Expected("APPROVED", null, keyUsage, null, null, reportedScopes, expiresAt, null, null)
                .convertedAt(converted.fx(), amount);
    }

    /** What an amount counts in the limit currency, and at which rate (null: not converted); or why it cannot. */
    private record Converted(long amount, Fx fx, String refused) {

        static Converted refusedFor(String reason) {
            return new Converted(0, null, reason);
        }
    }

    // an amount of the currency as a decision at the instant counts it: at the latest rate valid then,
    // rounded up to the limit currency's minor unit; the limit currency's as it is
    private Converted atLatestRate(long amount, String currency, Instant decidedAt) {
        if (currency.equals(limitCurrency)) {
            return new Converted(amount, null, null);
        }
        TreeMap<Instant, BigDecimal> known = rates.get(currency);
        Map.Entry<Instant, BigDecimal> latest = known == null ? null : known.floorEntry(decidedAt);
        if (latest == null) {
            return Converted.refusedFor("NO_FX_RATE");
        }
        if (latest.getKey().plus(fxMaxAge).isBefore(decidedAt)) {
            return Converted.refusedFor("FX_RATE_STALE");
        }
        Fx fx = new Fx(limitCurrency, latest.getValue(), latest.getKey());
        BigDecimal up = inLimitCurrency(amount, currency, fx).setScale(0, RoundingMode.CEILING);
        if (up.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            return Converted.refusedFor("NO_FX_RATE");
        }
        return new Converted(up.longValue(), fx, null);
    }

    // the amount, in the currency's minor units, in the limit currency's minor units at the rate, exactly
    private BigDecimal inLimitCurrency(long amount, String currency, Fx fx) {
        BigDecimal units = BigDecimal.valueOf(amount).movePointLeft(minorUnitDecimals(currency));
        return units.multiply(fx.rate()).movePointRight(minorUnitDecimals(limitCurrency));
    }

    // a follow-up's amount, in its original's currency, in the limit currency at its original's rate, exactly
    private BigDecimal atOriginalsRate(long amount, Counted original) {
        return original.fx == null
                ? BigDecimal.valueOf(amount)
                : inLimitCurrency(amount, original.currency, original.fx);
    }

    private static int minorUnitDecimals(String currency) {
        return Currency.getInstance(currency).getDefaultFractionDigits();
    }

    private static long up(BigDecimal exact) {
        return exact.setScale(0, RoundingMode.CEILING).longValueExact();
    }

    // the usage of the scopes other than the key's that have a window in force
    private static Map<String, Map<String, long[]>> reported(
            Map<String, Map<String, long[]>> usageByScope, Map<String, Map<String, Cap>> caps) {
        Map<String, Map<String, long[]>> reportedScopes = new LinkedHashMap<>();
        usageByScope.forEach((scope, usage) -> {
            if (!scope.equals("key") && !caps.getOrDefault(scope, Map.of()).isEmpty()) {
                reportedScopes.put(scope, usage);
            }
        });
        return reportedScopes;
    }

    /**
     * Whether the authorization filed under the key was approved and counted: a follow-up of it acts, and
     * an increment of it is checked, where it was counted; a follow-up of anything else where it names.
     */
    public boolean countsOriginal(String key, String original) {
        Filed filedOriginal = filed.get(key + "/" + original);
        return filedOriginal != null && filedOriginal.counted() != null;
    }

    private void count(Counted counted) {
        counted.scopeKeys
                .values()
                .forEach(scopeKey -> countedByScopeKey
                        .computeIfAbsent(scopeKey, k -> new ArrayList<>())
                        .add(counted));
    }

    /**
     * The reason of the first window of one scope that does not admit the amount, without a scope prefix;
     * null if all do.
     *
     * @param total what the txn cap is checked against
     * @param counts whether the count limits apply (an increment adds no count)
     */
    private static String firstFailure(
            long amount, long total, boolean counts, Map<String, long[]> usage, Map<String, Cap> caps) {
        for (String window : WINDOWS) {
            Cap cap = caps.get(window);
            if (cap == null) {
                continue;
            }
            String label = window.toUpperCase();
            if (window.equals("txn")) {
                if (total > cap.amount()) {
                    return "LIMIT_TXN_AMOUNT";
                }
                continue;
            }
            long[] used = usage.get(window);
            if (used[0] + amount > cap.amount()) {
                return "LIMIT_" + label + "_AMOUNT";
            }
            if (counts && used[1] + 1 > cap.count()) {
                return "LIMIT_" + label + "_COUNT";
            }
        }
        return null;
    }

    private static String prefixed(String scope, String reason) {
        return scope.equals("key") ? reason : scope.toUpperCase() + "_" + reason;
    }

    /**
     * Files an INVALID event under its key: a follow-up naming it finds an original that is not approved.
     * Returns its decision, which has no usage.
     */
    public Expected invalid(String key, String dedupeId) {
        filed.put(key + "/" + dedupeId, new Filed(true, "INVALID", null));
        return new Expected("INVALID", "INVALID_REQUEST", Map.of());
    }

    /**
     * Decides one reversal of the key, naming its original by dedupe_id: released from what is still
     * counted, the most recently counted part first (what is held before what was captured), at every scope
     * key the original was counted at, whatever account the reversal itself names. The one that leaves
     * nothing counted closes an open hold.
     *
     * @param decidedAt the decision's instant; a hold due at it expires first
     */
    public Expected reverse(String key, String dedupeId, String reverses, long amount, Instant decidedAt) {
        return reverse(key, dedupeId, reverses, amount, limitCurrency, decidedAt);
    }

    /**
     * {@link #reverse(String, String, String, long, Instant)} of an amount in the currency, which must be its
     * original's (else CURRENCY_MISMATCH, nothing changes), judged in that currency: more than is left of the
     * original is EXCEEDS_REMAINING (which reports its amount at the original's rate rounded up), all that is
     * left gives back everything still counted, and less gives back its amount at the original's rate
     * rounded down, never more than is still counted.
     */
    public Expected reverse(
            String key, String dedupeId, String reverses, long amount, String currency, Instant decidedAt) {
        Map<String, long[]> usage = usage(key, hourOf(decidedAt));
        Filed original = filed.get(key + "/" + reverses);
        Expected expected;
        if (original == null) {
            expected = new Expected("REJECTED", "ORIGINAL_NOT_FOUND", usage);
        } else if (!original.authorization() || !original.decision().equals("APPROVED")) {
            expected = new Expected("REJECTED", "ORIGINAL_NOT_APPROVED", usage);
        } else if (!currency.equals(original.counted().currency)) {
            expected = new Expected(
                    "REJECTED",
                    "CURRENCY_MISMATCH",
                    usage,
                    null,
                    original.counted().counted());
        } else {
            Counted counted = original.counted();
            expireIfDue(key, reverses, counted, decidedAt);
            BigDecimal exact = atOriginalsRate(amount, counted);
            long stillCounted = counted.counted();
            if (amount > counted.ownCounted) {
                expected = new Expected("REJECTED", "EXCEEDS_REMAINING", usage, null, stillCounted)
                        .convertedAt(counted.fx, up(exact));
            } else {
                long givenBack = amount == counted.ownCounted
                        ? stillCounted
                        : Math.min(
                                stillCounted,
                                exact.setScale(0, RoundingMode.FLOOR).longValueExact());
                counted.ownCounted -= amount;
                long[] released = counted.release(givenBack);
                if (counted.counted() == 0 && counted.isHold() && counted.state == HoldState.OPEN) {
                    close(counted, HoldState.RELEASED);
                }
                expected = new Expected("RELEASED", null, usage, released, counted.counted())
                        .convertedAt(counted.fx, givenBack);
            }
        }
        filed.put(key + "/" + dedupeId, new Filed(false, expected.decision(), null));
        return expected;
    }

    /**
     * Decides one capture of the key, never rejected. Up to what the original still holds it turns held into
     * captured; the excess (all of it when nothing is held: a closed hold, a final spend, an original unknown
     * or not approved) is counted anew in the current hour, at the original's scope keys with a count of 1
     * when nothing of it was counted, and without an approved original at the capture's own scope keys as a
     * spend of its own. A final capture then gives back what the hold still holds and closes it.
     *
     * @param account the account the capture names; where a capture without an authorization counts
     * @param decidedAt the decision's instant; a hold due at it expires first
     */
    public Expected capture(
            String key,
            String account,
            String dedupeId,
            String original,
            long amount,
            boolean isFinal,
            Instant decidedAt) {
        return capture(key, account, dedupeId, original, amount, limitCurrency, isFinal, decidedAt);
    }

    /**
     * {@link #capture(String, String, String, String, long, boolean, Instant)} of an amount in the currency.
     * Of an approved authorization it must be in its currency (else CURRENCY_MISMATCH, nothing changes) and
     * is judged in its currency: less than is held there takes from what is held up to its amount at the
     * original's rate, rounded up; all that is held there takes all that is held; more takes all that is
     * held, and counts anew the rest (in its currency) at the original's rate, rounded up. Without one it is
     * converted like an authorization, at the latest rate (refused NO_FX_RATE or FX_RATE_STALE like one).
     */
    public Expected capture(
            String key,
            String account,
            String dedupeId,
            String original,
            long eventAmount,
            String currency,
            boolean isFinal,
            Instant decidedAt) {
        Instant bucket = hourOf(decidedAt);
        Map<String, long[]> usage = usage(key, bucket);
        Filed filedOriginal = filed.get(key + "/" + original);
        filed.put(key + "/" + dedupeId, new Filed(false, "CAPTURED", null));
        if (filedOriginal == null || filedOriginal.counted() == null) {
            Converted converted = atLatestRate(eventAmount, currency, decidedAt);
            if (converted.refused() != null) {
                return new Expected("REJECTED", converted.refused(), usage);
            }
            long amount = converted.amount();
            count(new Counted(scopeKeys(key, account), bucket, amount, null, currency, null));
            return new Expected("CAPTURED", null, usage, null, null, Map.of(), null, 0L, amount)
                    .convertedAt(converted.fx(), amount);
        }
        Counted counted = filedOriginal.counted();
        if (!currency.equals(counted.currency)) {
            return new Expected("REJECTED", "CURRENCY_MISMATCH", usage, null, counted.counted());
        }
        expireIfDue(key, original, counted, decidedAt);
        long ownHeld = counted.ownHeld();
        long fromHeld = eventAmount < ownHeld
                ? Math.min(counted.held(), up(atOriginalsRate(eventAmount, counted)))
                : counted.held();
        long overCaptured = eventAmount > ownHeld ? up(atOriginalsRate(eventAmount - ownHeld, counted)) : 0;
        long amount = fromHeld + overCaptured;
        counted.captured += amount;
        counted.ownCaptured += eventAmount;
        counted.ownCounted += Math.max(0, eventAmount - ownHeld);
        if (overCaptured > 0) {
            counted.add(bucket, overCaptured);
        }
        long[] released = null;
        if (isFinal && counted.isHold() && counted.state == HoldState.OPEN) {
            counted.ownCounted -= counted.ownHeld();
            long held = counted.held();
            if (held > 0) {
                released = counted.release(held);
            }
            close(counted, HoldState.CAPTURED);
        }
        return new Expected(
                        "CAPTURED", null, usage, released, counted.counted(), Map.of(), null, fromHeld, overCaptured)
                .convertedAt(counted.fx, amount);
    }

    /**
     * Decides one increment of the key: admissible only for an open hold (an unknown original is
     * ORIGINAL_NOT_FOUND, one that is no approved hold ORIGINAL_NOT_APPROVED, a closed one HOLD_CLOSED), then
     * checked against every amount limit of every window at every scope the hold counts at, the txn cap
     * against the hold's authorized total with it; no count limit refuses it. Approved, it is counted in the
     * current hour and may move the expiry.
     *
     * Every increment reports the usage before it at the scopes it is checked at, rejected or not: those
     * its original counts at, or, without an approved original, those the increment itself names.
     *
     * @param account the account the increment names; null when none
     * @param holdExpiresAt the increment's hold_expires_at; null keeps the hold's expiry
     * @param decidedAt the decision's instant; a hold due at it expires first
     * @param caps the caps of each scope it is checked at, by scope
     */
    public Expected increment(
            String key,
            String account,
            String dedupeId,
            String original,
            long amount,
            Instant holdExpiresAt,
            Instant decidedAt,
            Map<String, Map<String, Cap>> caps) {
        return increment(key, account, dedupeId, original, amount, limitCurrency, holdExpiresAt, decidedAt, caps);
    }

    /**
     * {@link #increment(String, String, String, String, long, Instant, Instant, Map)} of an amount in the
     * currency: of an approved authorization it must be in its currency (else CURRENCY_MISMATCH, before any
     * other rule), and is decided as its amount at the authorization's rate, rounded up.
     */
    public Expected increment(
            String key,
            String account,
            String dedupeId,
            String original,
            long eventAmount,
            String currency,
            Instant holdExpiresAt,
            Instant decidedAt,
            Map<String, Map<String, Cap>> caps) {
        Instant bucket = hourOf(decidedAt);
        Map<String, long[]> usage = usage(key, bucket);
        Filed filedOriginal = filed.get(key + "/" + original);
        Counted counted = filedOriginal == null ? null : filedOriginal.counted();
        Map<String, Map<String, long[]>> usageByScope = new LinkedHashMap<>();
        (counted != null ? counted.scopeKeys : scopeKeys(key, account))
                .forEach((scope, scopeKey) -> usageByScope.put(scope, usage(scopeKey, bucket)));
        Map<String, Map<String, long[]>> scopes = reported(usageByScope, caps);
        filed.put(key + "/" + dedupeId, new Filed(false, "INCREMENT", null));
        if (filedOriginal == null) {
            return new Expected("REJECTED", "ORIGINAL_NOT_FOUND", usage, null, null, scopes, null, null, null);
        }
        if (counted == null) {
            return new Expected("REJECTED", "ORIGINAL_NOT_APPROVED", usage, null, null, scopes, null, null, null);
        }
        if (!currency.equals(counted.currency)) {
            return new Expected("REJECTED", "CURRENCY_MISMATCH", usage, null, null, scopes, null, null, null);
        }
        long amount = up(atOriginalsRate(eventAmount, counted));
        if (!counted.isHold()) {
            return new Expected("REJECTED", "ORIGINAL_NOT_APPROVED", usage, null, null, scopes, null, null, null)
                    .convertedAt(counted.fx, amount);
        }
        expireIfDue(key, original, counted, decidedAt);
        if (counted.state != HoldState.OPEN) {
            return new Expected("REJECTED", "HOLD_CLOSED", usage, null, null, scopes, null, null, null)
                    .convertedAt(counted.fx, amount);
        }
        for (Map.Entry<String, String> scope : counted.scopeKeys.entrySet()) {
            String reason = firstFailure(
                    amount,
                    counted.authorized + amount,
                    false,
                    usage(scope.getValue(), bucket),
                    caps.getOrDefault(scope.getKey(), Map.of()));
            if (reason != null) {
                return new Expected(
                                "REJECTED",
                                prefixed(scope.getKey(), reason),
                                usage,
                                null,
                                null,
                                scopes,
                                null,
                                null,
                                null)
                        .convertedAt(counted.fx, amount);
            }
        }
        counted.add(bucket, amount);
        counted.authorized += amount;
        counted.ownCounted += eventAmount;
        if (holdExpiresAt != null) {
            counted.expiresAt = holdExpiresAt;
        }
        return new Expected("APPROVED", null, usage, null, null, scopes, counted.expiresAt, null, null)
                .convertedAt(counted.fx, amount);
    }

    /**
     * Expires every open hold due at the instant: what it still holds is given back to the hours it was
     * counted in, the most recently counted part first, at every scope key it counts at, and it closes.
     * Every decision comes after the expiries of the holds due at its instant, a hold approved due already
     * (its expiry before its decision) among them.
     */
    public void expire(Instant at) {
        for (Map.Entry<String, Filed> entry : new ArrayList<>(filed.entrySet())) {
            Counted counted = entry.getValue().counted();
            if (counted != null && counted.dueAt(at)) {
                String[] name = entry.getKey().split("/");
                expireIfDue(name[0], name[1], counted, at);
            }
        }
    }

    /**
     * The expiry of the authorization filed under the key, as the model made it, taken out of those not yet
     * answered for; null when the model expired no such hold.
     */
    public Expected expiryOf(String key, String authorization) {
        return expiries.remove(key + "/" + authorization);
    }

    /** The expiries the model made that {@link #expiryOf} has not taken yet, by "key/authorization". */
    public Set<String> expiriesNotTaken() {
        return Set.copyOf(expiries.keySet());
    }

    private void expireIfDue(String key, String authorization, Counted counted, Instant at) {
        if (!counted.dueAt(at)) {
            return;
        }
        counted.ownCounted -= counted.ownHeld();
        long[] released = counted.release(counted.held());
        close(counted, HoldState.EXPIRED);
        expiries.put(
                key + "/" + authorization,
                new Expected(
                                "EXPIRED",
                                null,
                                Map.of(),
                                released,
                                counted.counted(),
                                Map.of(),
                                counted.expiresAt,
                                null,
                                null)
                        .convertedAt(counted.fx, released[0]));
    }

    private static void close(Counted counted, HoldState state) {
        counted.state = state;
    }

    /**
     * Files an approved hold decided before, open until its expiry and counted in earlier hours at every
     * scope key of the business key and the account (null: none): the authorization's amount and its
     * increments', in the order counted; its count in the first one's hour.
     */
    public void heldBefore(String key, String account, String dedupeId, List<HourAmount> parts, Instant expiresAt) {
        Counted counted = new Counted(
                scopeKeys(key, account), parts.get(0).hour(), parts.get(0).amount(), expiresAt, limitCurrency, null);
        for (HourAmount part : parts.subList(1, parts.size())) {
            counted.add(part.hour(), part.amount());
            counted.authorized += part.amount();
            counted.ownCounted += part.amount();
        }
        count(counted);
        filed.put(key + "/" + dedupeId, new Filed(true, "APPROVED", counted));
    }

    /**
     * Files an authorization decided before, as it was decided (APPROVED, REJECTED), without deciding it
     * again: counted when approved.
     */
    public void storedAuthorization(String key, String dedupeId, long amount, Instant bucket, String decision) {
        Counted counted = null;
        if (decision.equals("APPROVED")) {
            counted = new Counted(Map.of("key", key), bucket, amount, null, limitCurrency, null);
            count(counted);
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
            original.ownCounted -= amount;
            count = original.release(amount)[1];
        }
        filed.put(key + "/" + dedupeId, new Filed(false, decision, null));
        return count;
    }

    /**
     * What every scope key's hour buckets hold by the model: by scope key, by hour, {amount, count}; hours
     * with nothing counted left out.
     */
    public Map<String, Map<Instant, List<Long>>> buckets() {
        Map<String, Map<Instant, List<Long>>> buckets = new TreeMap<>();
        countedByScopeKey.forEach((scopeKey, counted) -> {
            Map<Instant, long[]> hours = new TreeMap<>();
            for (Counted each : counted) {
                for (Part part : each.parts) {
                    hours.computeIfAbsent(part.hour, hour -> new long[2])[0] += part.counted();
                }
                if (each.countHour != null) {
                    hours.computeIfAbsent(each.countHour, hour -> new long[2])[1]++;
                }
            }
            Map<Instant, List<Long>> nonZero = new TreeMap<>();
            hours.forEach((hour, tally) -> {
                if (tally[0] != 0 || tally[1] != 0) {
                    nonZero.put(hour, List.of(tally[0], tally[1]));
                }
            });
            if (!nonZero.isEmpty()) {
                buckets.put(scopeKey, nonZero);
            }
        });
        return buckets;
    }

    private Map<String, long[]> usage(String scopeKey, Instant bucket) {
        Map<String, long[]> usage = new LinkedHashMap<>();
        for (String window : WINDOWS.subList(1, WINDOWS.size())) {
            Instant since = since(window, bucket);
            long sum = 0;
            long count = 0;
            for (Counted counted : countedByScopeKey.getOrDefault(scopeKey, List.of())) {
                for (Part part : counted.parts) {
                    if (!part.hour.isBefore(since)) {
                        sum += part.counted();
                    }
                }
                if (counted.countHour != null && !counted.countHour.isBefore(since)) {
                    count++;
                }
            }
            usage.put(window, new long[] {sum, count});
        }
        return usage;
    }

    private static Instant hourOf(Instant instant) {
        return instant.truncatedTo(ChronoUnit.HOURS);
    }
}
