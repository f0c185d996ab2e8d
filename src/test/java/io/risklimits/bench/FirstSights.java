package io.risklimits.bench;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.store.WindowStartsCache;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Makes every key of a wide key set a first sight again, as a card portfolio's cards mostly are: a card
 * was last decided hours ago, in another hour bucket than this one, among more cards than a decider
 * remembers window starts of. Before each of the key set's phases (end to end and ceiling, every
 * round) the service forgets the window starts it remembered for these keys this hour, and the pages
 * of their history leave shared buffers (they stay in the kernel's page cache): each phase reads
 * every key's window starts and pages as the first phase did, however many phases ran before.
 */
final class FirstSights {

    // each key and its entity: every event of the set counts at both
    private final List<ScopeKey> scopeKeys;

    FirstSights(BenchmarkKeys keys) {
        this.scopeKeys = IntStream.range(0, keys.size())
                .mapToObj(i ->
                        new BusinessKey(keys.entityId(i), BenchmarkKeys.CHANNEL, Direction.valueOf(keys.direction(i))))
                .flatMap(key -> ScopeKey.countedAt(key, null).stream())
                .toList();
    }

    /** Call right before the phase: nothing may read the keys' pages between this and the phase. */
    void restore(ServiceUnderTest service, BenchmarkDatabase database) {
        forgetWindowStarts(service.bean(WindowStartsCache.class));
        long evicted = database.evictWideHistory();
        System.out.printf(
                "Benchmark: window starts of the wide key set forgotten, %d of its history's pages evicted from"
                        + " shared buffers%n",
                evicted);
    }

    /**
     * WindowStartsCache#forget is the store's own; the benchmark calls it from outside its package, the
     * service running in this JVM. The current hour bucket is the one the decider remembers for.
     */
    private void forgetWindowStarts(WindowStartsCache cache) {
        try {
            Method forget = WindowStartsCache.class.getDeclaredMethod("forget", Collection.class, Instant.class);
            forget.setAccessible(true);
            Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
            forget.invoke(cache, scopeKeys, hour);
        } catch (NoSuchMethodException | IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException(
                    "the wide key set needs WindowStartsCache#forget(Collection<ScopeKey>, Instant)", e);
        }
    }
}
