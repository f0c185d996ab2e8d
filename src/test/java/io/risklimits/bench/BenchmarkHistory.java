package io.risklimits.bench;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import java.util.stream.IntStream;

/**
 * The history the benchmark's scenarios start from, loaded once before anything runs: each key set's
 * buckets at the key and entity scopes (and the account scopes for a scenario with accounts), the open
 * holds of a key set a scenario with holds decides, and the request log brought to its steady size.
 */
final class BenchmarkHistory {

    // open holds per key of a key set a scenario with holds decides: a card's holds of about a week
    private static final int OPEN_HOLDS_PER_KEY = 10;

    private final BenchmarkOptions options;
    private final BenchmarkDatabase database;

    BenchmarkHistory(BenchmarkOptions options, BenchmarkDatabase database) {
        this.options = options;
        this.database = database;
    }

    /**
     * One key set per history depth, and the wide key set, each loaded once; runs share it and are reset
     * in between.
     */
    Map<String, BenchmarkKeys> load(List<Scenario> scenarios) {
        Map<String, BenchmarkKeys> keysBySet = new HashMap<>();
        Set<String> openHoldsWritten = new HashSet<>();
        for (Scenario scenario : scenarios) {
            keysBySet.computeIfAbsent(
                    scenario.keySet(),
                    set -> scenario.wideKeys()
                            ? loadWide(BenchmarkKeys.random(options.wideKeys()))
                            : load(BenchmarkKeys.random(options.keys()), scenario.historyDays()));
            if (scenario.hasHotKey()) {
                database.raiseLimitsOf(keysBySet.get(scenario.keySet()).entityId(0));
            }
            if (scenario.accounts() > 0) {
                loadAccountHistory(scenario, keysBySet.get(scenario.keySet()));
            }
            if (scenario.hasHolds() && openHoldsWritten.add(scenario.keySet())) {
                writeOpenHolds(scenario, keysBySet.get(scenario.keySet()));
            }
        }
        return keysBySet;
    }

    // a deployment's open holds at the key set's keys, once per key set
    private void writeOpenHolds(Scenario scenario, BenchmarkKeys keys) {
        long startedNanos = System.nanoTime();
        long rows = database.writeOpenHolds(keys, OPEN_HOLDS_PER_KEY);
        System.out.printf(
                "Benchmark: %s: %d open holds of the days before, held past the run, in %.1f s%n",
                scenario.name(), rows, (System.nanoTime() - startedNanos) / 1e9);
    }

    // the scenario's accounts' history at both account scopes, added up from their keys' buckets
    private void loadAccountHistory(Scenario scenario, BenchmarkKeys keys) {
        long startedNanos = System.nanoTime();
        List<UUID> accounts =
                IntStream.range(0, keys.size()).mapToObj(scenario::accountOf).toList();
        // the planner's statistics of the key buckets they add up: autovacuum does not run during a bulk load
        database.analyzeKeyBuckets();
        // both from the key buckets, on two connections at once
        CompletableFuture<Long> accountRows =
                CompletableFuture.supplyAsync(() -> database.loadScopeHistory("account", keys, accounts, false));
        long rows = database.loadScopeHistory("account_channel", keys, accounts, true) + accountRows.join();
        database.addAccountLimits();
        System.out.printf(
                "Benchmark: %s: %d accounts' history: %d buckets in %.1f s%n",
                scenario.name(), scenario.accounts(), rows, (System.nanoTime() - startedNanos) / 1e9);
    }

    // the key buckets and the entity scope's history on two connections at once: one statement each
    private BenchmarkKeys loadWide(BenchmarkKeys keys) {
        return loadBeside(
                keys,
                () -> database.loadWideHistory(keys),
                () -> database.loadWideEntityHistory(keys),
                String.format(
                        "wide key set of %d keys, %d buckets each over 30 days",
                        keys.size(), Scenario.WIDE_BUCKETS_PER_KEY));
    }

    // every event counts at its entity too: its entity's history, as V5 backfills it from the key buckets,
    // loaded beside them on a second connection, as loadWide's
    BenchmarkKeys load(BenchmarkKeys keys, int historyDays) {
        return loadBeside(
                keys,
                () -> database.loadHistory(keys, historyDays),
                () -> database.loadEntityHistory(keys, historyDays),
                String.format("history of %d days for %d keys", historyDays, keys.size()));
    }

    // the key buckets on this connection and the entity scope's on a second one at once, each timed
    private BenchmarkKeys loadBeside(
            BenchmarkKeys keys, LongSupplier keyBuckets, LongSupplier entityBuckets, String what) {
        long startedNanos = System.nanoTime();
        CompletableFuture<Long> entityRows = CompletableFuture.supplyAsync(entityBuckets::getAsLong);
        long rows = keyBuckets.getAsLong();
        double seconds = (System.nanoTime() - startedNanos) / 1e9;
        long entityRowsLoaded = entityRows.join();
        System.out.printf(
                "Benchmark: %s: %d buckets in %.1f s (%.0f rows/s); its entity scope history beside it, on a"
                        + " second connection: %d buckets, both in %.1f s%n",
                what, rows, seconds, rows / seconds, entityRowsLoaded, (System.nanoTime() - startedNanos) / 1e9);
        return keys;
    }

    /**
     * A service that has run for longer than its retention deletes as many decisions as it adds, and
     * its new rows reuse their space. A young request log grows instead, a page at a time, and on a
     * host with much memory the kernel writes those new pages back in one burst about every 30 s,
     * which stalls every commit behind it (docs/benchmark.md, "What mattered").
     */
    void writeAndDeleteOldDecisions(Collection<BenchmarkKeys> keySets) {
        if (options.oldDecisionsPerKey() == 0) {
            return;
        }
        long startedNanos = System.nanoTime();
        long rows = 0;
        for (BenchmarkKeys keys : keySets) {
            // a key set of many keys writes as many as one of bench.keys keys: the free space is the log's,
            // not the keys'
            int perKey = (int) Math.max(1, (long) options.oldDecisionsPerKey() * options.keys() / keys.size());
            rows += database.writeAndDeleteOldDecisions(keys, Math.min(options.oldDecisionsPerKey(), perKey));
        }
        System.out.printf(
                "Benchmark: request log at its steady size: %d decisions past retention written and deleted in %.1f s%n",
                rows, (System.nanoTime() - startedNanos) / 1e9);
    }
}
