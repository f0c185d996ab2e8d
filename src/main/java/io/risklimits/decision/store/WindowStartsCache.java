package io.risklimits.decision.store;

import io.risklimits.decision.ScopeKey;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The {@link WindowStarts} of recently decided scope keys (business keys and the other scopes' keys) for the current hour bucket, so that a key
 * decided again within the hour costs one index probe (its latest bucket) instead of seven (one more per window that counts usage). Only keys
 * with a bucket in the last 24 hours are given to it. Entries of an earlier hour are dropped as a whole
 * when the hour changes; at most {@code maxKeys} keys are kept per hour (0 turns the cache off), and a
 * key beyond that is read in full every time.
 *
 * <p>Safe across instances without invalidation: what it holds is used only while the key's latest
 * bucket carries the count of rewrites it was read with (see {@link WindowStarts}), whoever wrote the
 * key's buckets since.
 */
public class WindowStartsCache {

    private record HourEntries(Instant bucket, Map<ScopeKey, WindowStarts> byKey) {}

    private final int maxKeys;
    private final AtomicReference<HourEntries> current =
            new AtomicReference<>(new HourEntries(Instant.EPOCH, new ConcurrentHashMap<>()));

    public WindowStartsCache(int maxKeys) {
        this.maxKeys = maxKeys;
    }

    /** The window starts remembered for the key and the hour bucket, or null. */
    WindowStarts find(ScopeKey key, Instant bucket) {
        HourEntries entries = current.get();
        return entries.bucket().equals(bucket) ? entries.byKey().get(key) : null;
    }

    /** Drops what is remembered of these keys for the hour bucket. */
    void forget(Collection<ScopeKey> keys, Instant bucket) {
        HourEntries entries = current.get();
        if (entries.bucket().equals(bucket)) {
            keys.forEach(entries.byKey()::remove);
        }
    }

    void remember(Map<ScopeKey, WindowStarts> starts, Instant bucket) {
        if (maxKeys == 0 || starts.isEmpty()) {
            return;
        }
        HourEntries entries = current.get();
        if (!entries.bucket().equals(bucket)) {
            // a thread still deciding in the previous hour may switch back for a moment: a few misses
            current.compareAndSet(entries, new HourEntries(bucket, new ConcurrentHashMap<>()));
            entries = current.get();
            if (!entries.bucket().equals(bucket)) {
                return;
            }
        }
        for (Map.Entry<ScopeKey, WindowStarts> entry : starts.entrySet()) {
            if (entries.byKey().size() >= maxKeys) {
                return;
            }
            entries.byKey().put(entry.getKey(), entry.getValue());
        }
    }
}
