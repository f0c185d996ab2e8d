package io.risklimits.bench;

import java.util.List;

/**
 * A traffic shape over a key set with a given depth of history.
 *
 * @param name short name used in options, tables and results.json
 * @param summaryName its name in summary.json
 * @param historyDays days of hourly buckets every key has before the run
 * @param hotKeyShare share of the events on the first key of the set (0: keys drawn uniformly)
 * @param reversalShare share of the events that are reversals of an earlier event of the stream
 */
record Scenario(String name, String summaryName, int historyDays, double hotKeyShare, double reversalShare) {

    static final Scenario UNIFORM = new Scenario("uniform-30d", "uniform_30d", 30, 0, 0);
    static final Scenario HOT_KEY = new Scenario("hot-key-30d", "hot_key_30d", 30, 0.5, 0);
    static final Scenario SHALLOW_HISTORY = new Scenario("uniform-1d", "uniform_1d", 1, 0, 0);
    static final Scenario REVERSAL_MIX = new Scenario("reversal-mix-30d", "reversal_mix", 30, 0, 0.10);

    // the order of a round: uniform 30 d next to the two scenarios it is compared with (1 d of history,
    // the reversal mix), so that the machine's drift between them is a few seconds' worth
    static final List<Scenario> ALL = List.of(SHALLOW_HISTORY, UNIFORM, REVERSAL_MIX, HOT_KEY);

    static final List<String> NAMES = ALL.stream().map(Scenario::name).toList();

    static Scenario named(String name) {
        return ALL.stream()
                .filter(scenario -> scenario.name.equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "bench.scenarios: unknown scenario " + name + "; known: " + NAMES));
    }

    boolean hasHotKey() {
        return hotKeyShare > 0;
    }
}
