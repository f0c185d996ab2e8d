package io.risklimits.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

/**
 * A traffic shape over a key set with a given depth of history.
 *
 * @param name short name used in options, tables and results.json
 * @param summaryName its name in summary.json
 * @param historyDays days of hourly buckets every key has before the run
 * @param hotKeyShare share of the events on the first key of the set (0: keys drawn uniformly)
 * @param reversalShare share of the events that are reversals of an earlier event of the stream
 * @param wideKeys a card portfolio's spread: a key set of its own ({@code bench.wide-keys}, more keys than
 *     a decider remembers window starts of), each key with {@link #WIDE_BUCKETS_PER_KEY} hourly buckets
 *     spread over the historyDays rather than every hour, and the keys drawn in a fixed shuffled order,
 *     each once before any comes again
 * @param accounts how many accounts the key set's entities are spread over, each event naming its
 *     entity's account (key i belongs to account i mod accounts); 0: events name no account
 * @param holds whether the authorizations are holds and what follows them ({@link HoldMix#NONE}: final
 *     spends, nothing follows)
 * @param foreignShare share of the authorizations in a currency other than the limit currency, drawn
 *     evenly from {@link #FOREIGN_CURRENCIES}, each with a rate the run loads
 */
record Scenario(
        String name,
        String summaryName,
        int historyDays,
        double hotKeyShare,
        double reversalShare,
        boolean wideKeys,
        int accounts,
        HoldMix holds,
        double foreignShare) {

    Scenario(
            String name,
            String summaryName,
            int historyDays,
            double hotKeyShare,
            double reversalShare,
            boolean wideKeys) {
        this(name, summaryName, historyDays, hotKeyShare, reversalShare, wideKeys, 0);
    }

    Scenario(
            String name,
            String summaryName,
            int historyDays,
            double hotKeyShare,
            double reversalShare,
            boolean wideKeys,
            int accounts) {
        this(name, summaryName, historyDays, hotKeyShare, reversalShare, wideKeys, accounts, HoldMix.NONE);
    }

    Scenario(
            String name,
            String summaryName,
            int historyDays,
            double hotKeyShare,
            double reversalShare,
            boolean wideKeys,
            int accounts,
            HoldMix holds) {
        this(name, summaryName, historyDays, hotKeyShare, reversalShare, wideKeys, accounts, holds, 0);
    }

    /** The foreign currencies of a scenario with a foreign share: the yen (no minor unit) among three of two decimals. */
    static final List<String> FOREIGN_CURRENCIES = List.of("EUR", "GBP", "JPY", "CAD");

    /**
     * Every authorization a hold (it carries hold_expires_at, whatever its channel), and one follow-up
     * at most of each, later in the stream on the same key: of the authorizations, captureShare are
     * captured (the amount held, or a little more or less), incrementShare incremented, expiringShare
     * expire a few seconds after they occurred, within the phase; the others are held past it.
     */
    record HoldMix(double captureShare, double incrementShare, double expiringShare) {

        static final HoldMix NONE = new HoldMix(0, 0, 0);
    }

    /** Buckets of each key of a wide key set, the latest 1 to 59 hours old, the others 59 hours apart. */
    static final int WIDE_BUCKETS_PER_KEY = 12;

    static final int WIDE_BUCKET_SPACING_HOURS = 59;

    static final Scenario UNIFORM = new Scenario("uniform-30d", "uniform_30d", 30, 0, 0, false);
    static final Scenario HOT_KEY = new Scenario("hot-key-30d", "hot_key_30d", 30, 0.5, 0, false);
    static final Scenario SHALLOW_HISTORY = new Scenario("uniform-1d", "uniform_1d", 1, 0, 0, false);
    static final Scenario REVERSAL_MIX = new Scenario("reversal-mix-30d", "reversal_mix", 30, 0, 0.10, false);
    static final Scenario WIDE_KEYS = new Scenario("wide-keys", "wide_keys", 30, 0, 0, true);
    // every event counted at its key, its entity, its account on the channel and its account
    static final Scenario ALL_SCOPES = new Scenario("all-scopes", "all_scopes", 30, 0, 0, false, 1_000);
    // the same, the accounts so few that every batch shares them: their locks serialise the batches
    static final Scenario HOT_ACCOUNT = new Scenario("hot-account", "hot_account", 30, 0, 0, false, 10);
    // card traffic: holds, most of them captured later, some incremented, some expiring during the phase
    static final Scenario HOLDS_MIX =
            new Scenario("holds-mix", "holds_mix", 30, 0, 0, false, 0, new HoldMix(0.60, 0.10, 0.05));
    // uniform 30 d with 30 % of the authorizations in four foreign currencies, converted at decision time
    static final Scenario FX_MIX = new Scenario("fx-mix", "fx_mix", 30, 0, 0, false, 0, HoldMix.NONE, 0.30);

    // the order of a round: uniform 30 d next to the scenarios it is compared with (1 d of history,
    // the reversal, holds and currency mixes, the scopes, the wide key set), so that the machine's drift between them
    // is a few seconds' worth
    static final List<Scenario> ALL = List.of(
            SHALLOW_HISTORY, UNIFORM, REVERSAL_MIX, HOLDS_MIX, FX_MIX, ALL_SCOPES, HOT_ACCOUNT, WIDE_KEYS, HOT_KEY);

    static final List<String> NAMES = ALL.stream().map(Scenario::name).toList();

    // the quick run's: every scenario a goal reads
    static final List<String> QUICK_NAMES =
            NAMES.stream().filter(name -> !name.equals(HOT_KEY.name())).toList();

    /**
     * The scenarios in the order a round runs them: odd rounds in the order given, even rounds the other way
     * round. A machine that speeds up or slows down over a round then favours each scenario over the one it
     * is compared with in one round and the other way in the next, instead of always the same way.
     */
    static List<Scenario> inRound(List<Scenario> scenarios, int round) {
        if (round % 2 == 1) {
            return scenarios;
        }
        List<Scenario> reversed = new ArrayList<>(scenarios);
        Collections.reverse(reversed);
        return List.copyOf(reversed);
    }

    static Scenario named(String name) {
        return ALL.stream()
                .filter(scenario -> scenario.name.equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "bench.scenarios: unknown scenario " + name + "; known: " + NAMES));
    }

    /** The key set the scenario runs on: scenarios of the same history share one. */
    String keySet() {
        return wideKeys ? "wide" : historyDays + "d";
    }

    boolean hasHotKey() {
        return hotKeyShare > 0;
    }

    /** The account key i of the key set belongs to in this scenario, the same in every run. */
    UUID accountOf(int keyIndex) {
        return UUID.nameUUIDFromBytes((name + ":account:" + keyIndex % accounts).getBytes(StandardCharsets.UTF_8));
    }

    boolean hasHolds() {
        return !holds.equals(HoldMix.NONE);
    }

    boolean hasForeignCurrencies() {
        return foreignShare > 0;
    }

    /**
     * Whether the per-event baseline runs it: the baseline counts at the business key alone and decides
     * every event as an authorization in the limit currency, as v2 did, so it knows neither captures,
     * increments, expiry nor rates.
     */
    boolean comparedWithBaseline() {
        return !wideKeys && accounts == 0 && !hasHolds() && !hasForeignCurrencies();
    }
}
