package io.risklimits.bench;

import java.util.List;

/**
 * A traffic shape over a key set with a given depth of history.
 *
 * @param name short name used in options, tables and JSON
 * @param historyDays days of hourly buckets every key has before the run
 * @param hotKeyShare share of the events on the first key of the set (0: keys drawn uniformly)
 * @param reversalShare share of the events that are reversals of an earlier event of the stream
 */
record Scenario(String name, int historyDays, double hotKeyShare, double reversalShare) {

    static final Scenario UNIFORM = new Scenario("uniform-30d", 30, 0, 0);
    static final Scenario HOT_KEY = new Scenario("hot-key-30d", 30, 0.5, 0);
    static final Scenario SHALLOW_HISTORY = new Scenario("uniform-1d", 1, 0, 0);
    static final Scenario REVERSAL_MIX = new Scenario("reversal-mix-30d", 30, 0, 0.10);

    static final List<String> NAMES = List.of(UNIFORM.name, HOT_KEY.name, SHALLOW_HISTORY.name, REVERSAL_MIX.name);

    static Scenario named(String name) {
        return List.of(UNIFORM, HOT_KEY, SHALLOW_HISTORY, REVERSAL_MIX).stream()
                .filter(scenario -> scenario.name.equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "bench.scenarios: unknown scenario " + name + "; known: " + NAMES));
    }

    boolean hasHotKey() {
        return hotKeyShare > 0;
    }
}
