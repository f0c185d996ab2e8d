package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.ScopeKey;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;

/**
 * A batch's advisory locks, taken in two steps (docs/adr/0004, 0005): first its business keys and the
 * scope keys of their entities, under which it reads their usage and the originals of its reversals;
 * then the account scopes of its events and of those originals, under which it reads theirs. Each step
 * locks in ascending hash order and every batch finishes the first before it starts the second, so all
 * locks are taken in one (step, hash) order and no two batches can deadlock. Accounts, shared by
 * entities on every partition, are what batches wait for: their locks are taken last, so they are held
 * for the least of the batch's work.
 */
final class BatchLocks {

    // each statement started when the server received it, so the difference is the wait for the locks
    private static final String BEGIN_BATCH_DECISION = """
            SELECT begun.decided_at,
                   extract(epoch FROM begun.decided_at - statement_timestamp()) AS lock_wait_seconds
            FROM risk_begin_scoped_batch_decision(
                     CAST(:entityIds AS uuid[]), CAST(:channels AS text[]), CAST(:directions AS text[]),
                     CAST(:scopes AS text[]), CAST(:ownerIds AS uuid[]), CAST(:scopeChannels AS text[]),
                     CAST(:scopeDirections AS text[])) AS begun (decided_at)
            """;

    private static final String LOCK_SCOPE_KEYS = """
            SELECT locked.decided_at,
                   extract(epoch FROM locked.decided_at - statement_timestamp()) AS lock_wait_seconds
            FROM risk_lock_scope_keys(
                     CAST(:scopes AS text[]), CAST(:ownerIds AS uuid[]), CAST(:scopeChannels AS text[]),
                     CAST(:scopeDirections AS text[])) AS locked (decided_at)
            """;

    /** The database clock after a step's locks, and the wait for them. */
    record Locked(Instant decidedAt, Duration lockWait) {}

    private BatchLocks() {}

    /**
     * Adds the first statement of a batch to the round trip: checks READ COMMITTED, locks the business keys
     * and the given scope keys, which must not be account scopes ({@link #lockAccountScopes}).
     */
    static Supplier<Locked> begin(Set<BusinessKey> keys, Set<ScopeKey> scopeKeys, RoundTrip trip) {
        scopeKeys.stream().filter(key -> key.scope().ownedByAccount()).findAny().ifPresent(account -> {
            throw new IllegalArgumentException("account scopes are locked in the second step: " + account);
        });
        MapSqlParameterSource parameters =
                scopeKeyArrays(scopeKeys, KeyArrays.of(keys).parameters());
        return trip.query(BEGIN_BATCH_DECISION, parameters, BatchLocks::locked);
    }

    /**
     * Adds the second step to the round trip: locks account scope keys, after {@link #begin} in the same
     * transaction.
     */
    static Supplier<Locked> lockAccountScopes(Set<ScopeKey> accountScopes, RoundTrip trip) {
        accountScopes.stream()
                .filter(key -> !key.scope().ownedByAccount())
                .findAny()
                .ifPresent(other -> {
                    throw new IllegalArgumentException("only account scopes are locked in the second step: " + other);
                });
        return trip.query(
                LOCK_SCOPE_KEYS, scopeKeyArrays(accountScopes, new MapSqlParameterSource()), BatchLocks::locked);
    }

    /**
     * Refuses to go on when an original read under the locks was counted at an account scope that is not
     * locked: a release must never write where the batch holds no lock.
     */
    static void requireLocked(Map<RequestId, StoredOriginal> originals, Set<ScopeKey> lockedAccountScopes) {
        Set<ScopeKey> missing = new LinkedHashSet<>();
        originals.forEach((id, original) -> original.countedAt(id.businessKey()).stream()
                .filter(key -> key.scope().ownedByAccount() && !lockedAccountScopes.contains(key))
                .forEach(missing::add));
        if (!missing.isEmpty()) {
            throw new IllegalStateException("account scopes released at but not locked: " + missing);
        }
    }

    // the scope keys as the arrays of both functions
    private static MapSqlParameterSource scopeKeyArrays(Collection<ScopeKey> scopeKeys, MapSqlParameterSource into) {
        List<ScopeKey> keys = List.copyOf(scopeKeys);
        return into.addValue("scopes", column(keys, key -> key.scope().label()))
                .addValue("ownerIds", keys.stream().map(ScopeKey::owner).toArray(UUID[]::new))
                .addValue("scopeChannels", column(keys, ScopeKey::channel))
                .addValue("scopeDirections", column(keys, key -> key.direction().name()));
    }

    private static <T> String[] column(Collection<T> rows, Function<T, String> value) {
        return rows.stream().map(value).toArray(String[]::new);
    }

    private static Locked locked(ResultSet rs) throws SQLException {
        rs.next();
        Instant decidedAt = rs.getObject("decided_at", OffsetDateTime.class).toInstant();
        Duration wait = Duration.ofNanos(Math.round(rs.getDouble("lock_wait_seconds") * 1e9));
        return new Locked(decidedAt, wait);
    }
}
