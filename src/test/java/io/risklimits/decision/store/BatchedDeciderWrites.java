package io.risklimits.decision.store;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.Scope;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Tally;
import io.risklimits.decision.WindowCalendar;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Bucket writes as the batched decider makes them, in the caller's transaction: begin the batch under the
 * keys' locks (the triggers stand aside), read the latest buckets, add one event's amount at each scope
 * key with the running totals its own statement writes.
 */
final class BatchedDeciderWrites {

    private final JdbcTemplate db;
    private final HourlyUsageRepository buckets = new HourlyUsageRepository();
    private final RunningUsageRepository usage;

    BatchedDeciderWrites(JdbcTemplate db) {
        this.db = db;
        this.usage = new RunningUsageRepository(
                db, WindowCalendar.UTC, new WindowStartsCache(0), new DecisionStoreMetrics(new SimpleMeterRegistry()));
    }

    /** The usage reads the decider makes, on the same connection. */
    RunningUsageRepository usage() {
        return usage;
    }

    /** Adds the amount at the entity's CARD OUT key alone. */
    void addAtTheKey(UUID entity, Instant bucket, long amount) {
        add(List.of(ScopeKey.of(new BusinessKey(entity, "CARD", Direction.OUT))), bucket, amount);
    }

    /** Adds the amount at each key and at its entity, in one batch. */
    void addAtEachKeyAndEntity(List<BusinessKey> keys, Instant bucket, long amount) {
        add(keys.stream().flatMap(key -> ScopeKey.countedAt(key, null).stream()).toList(), bucket, amount);
    }

    /** Adds the amount at each of these key and entity scope keys, in one batch that locks them first. */
    void add(Collection<ScopeKey> scopeKeys, Instant bucket, long amount) {
        List<ScopeKey> keys =
                scopeKeys.stream().filter(key -> key.scope() == Scope.KEY).toList();
        List<ScopeKey> entities =
                scopeKeys.stream().filter(key -> key.scope() == Scope.ENTITY).toList();
        db.queryForObject(
                "SELECT decided_at FROM risk_begin_scoped_batch_decision(?::uuid[], ?::text[], ?::text[], "
                        + "?::text[], ?::uuid[], ?::text[], ?::text[])",
                OffsetDateTime.class,
                keys.stream().map(ScopeKey::owner).toArray(UUID[]::new),
                keys.stream().map(ScopeKey::channel).toArray(String[]::new),
                keys.stream().map(key -> key.direction().name()).toArray(String[]::new),
                entities.stream().map(key -> key.scope().label()).toArray(String[]::new),
                entities.stream().map(ScopeKey::owner).toArray(UUID[]::new),
                entities.stream().map(ScopeKey::channel).toArray(String[]::new),
                entities.stream().map(key -> key.direction().name()).toArray(String[]::new));
        Map<ScopeKey, Tally> added = new HashMap<>();
        scopeKeys.forEach(scopeKey -> added.put(scopeKey, new Tally(amount, 1)));
        RoundTrip trip = new RoundTrip(db);
        buckets.addToBuckets(
                added, bucket, usage.usageUpTo(List.copyOf(scopeKeys), bucket).latestBuckets(), trip);
        trip.run();
    }
}
