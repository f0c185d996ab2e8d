package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Scope;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.TransactionEvent;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;

/**
 * The first statement of a batch (docs/adr/0004, 0005): it checks READ COMMITTED, finds the accounts of
 * the originals the batch's reversals name, locks the business keys and the scope keys (those given and
 * those originals' account scopes) in one order, and returns the database clock. Also the check, once
 * the originals are read under the locks, that every scope key a release goes to is locked.
 */
final class BatchLocks {

    // the statement started when the server received it, so the difference is the wait for the locks
    private static final String BEGIN_BATCH_DECISION = """
            SELECT begun.decided_at, begun.original_account_ids,
                   extract(epoch FROM begun.decided_at - statement_timestamp()) AS lock_wait_seconds
            FROM risk_begin_scoped_batch_decision(
                     CAST(:entityIds AS uuid[]), CAST(:channels AS text[]), CAST(:directions AS text[]),
                     CAST(:scopes AS text[]), CAST(:ownerIds AS uuid[]), CAST(:scopeChannels AS text[]),
                     CAST(:scopeDirections AS text[]),
                     CAST(:originalEntityIds AS uuid[]), CAST(:originalChannels AS text[]),
                     CAST(:originalDirections AS text[]), CAST(:originalDedupeIds AS uuid[])) AS begun
            """;

    /** The clock after the locks, the wait for them, and every scope key locked. */
    record Begun(Instant decidedAt, Duration lockWait, Set<ScopeKey> lockedScopeKeys) {}

    private BatchLocks() {}

    /**
     * Adds the first statement to the round trip: locks the business keys, the scope keys and the account
     * scopes of the reversals' originals as committed so far.
     */
    static Supplier<Begun> begin(
            Set<BusinessKey> keys, Set<ScopeKey> scopeKeys, List<TransactionEvent> reversals, RoundTrip trip) {
        return trip.query(BEGIN_BATCH_DECISION, parameters(keys, scopeKeys, reversals), rs -> {
            rs.next();
            Set<ScopeKey> locked = new HashSet<>(scopeKeys);
            UUID[] originalAccounts =
                    (UUID[]) rs.getArray("original_account_ids").getArray();
            for (int i = 0; i < reversals.size(); i++) {
                locked.addAll(ScopeKey.countedAt(reversals.get(i).businessKey(), originalAccounts[i]));
            }
            return new Begun(decidedAt(rs), lockWait(rs), locked);
        });
    }

    /**
     * Refuses to go on when an original read under the locks was counted at a scope key that is not
     * locked: committed while the batch waited, with an account the first statement could not see.
     */
    static void requireLocked(Map<RequestId, StoredOriginal> originals, Set<ScopeKey> locked) {
        Set<ScopeKey> missing = new LinkedHashSet<>();
        originals.forEach((id, original) -> original.countedAt(id.businessKey()).stream()
                .filter(key -> key.scope() != Scope.KEY && !locked.contains(key))
                .forEach(missing::add));
        if (!missing.isEmpty()) {
            throw new ScopesNotLocked(missing);
        }
    }

    // business keys, scope keys (the business keys' own excluded) and the reversals' originals, as the
    // arrays of risk_begin_scoped_batch_decision
    private static MapSqlParameterSource parameters(
            Set<BusinessKey> keys, Set<ScopeKey> scopeKeys, List<TransactionEvent> reversals) {
        List<ScopeKey> aggregate =
                scopeKeys.stream().filter(key -> key.scope() != Scope.KEY).toList();
        List<BusinessKey> originalKeys =
                reversals.stream().map(TransactionEvent::businessKey).toList();
        return KeyArrays.of(keys)
                .parameters()
                .addValue("scopes", column(aggregate, key -> key.scope().label()))
                .addValue("ownerIds", aggregate.stream().map(ScopeKey::owner).toArray(UUID[]::new))
                .addValue("scopeChannels", column(aggregate, ScopeKey::channel))
                .addValue(
                        "scopeDirections",
                        column(aggregate, key -> key.direction().name()))
                .addValue(
                        "originalEntityIds",
                        originalKeys.stream().map(BusinessKey::entityId).toArray(UUID[]::new))
                .addValue("originalChannels", column(originalKeys, BusinessKey::channel))
                .addValue(
                        "originalDirections",
                        column(originalKeys, key -> key.direction().name()))
                .addValue(
                        "originalDedupeIds",
                        reversals.stream().map(TransactionEvent::reverses).toArray(UUID[]::new));
    }

    private static <T> String[] column(Collection<T> rows, Function<T, String> value) {
        return rows.stream().map(value).toArray(String[]::new);
    }

    private static Instant decidedAt(ResultSet rs) throws SQLException {
        return rs.getObject("decided_at", OffsetDateTime.class).toInstant();
    }

    private static Duration lockWait(ResultSet rs) throws SQLException {
        return Duration.ofNanos(Math.round(rs.getDouble("lock_wait_seconds") * 1e9));
    }

    /** Scope keys a batch must release at but did not lock: the batch is rolled back and locks them too. */
    static final class ScopesNotLocked extends RuntimeException {

        private final Set<ScopeKey> scopeKeys;

        ScopesNotLocked(Set<ScopeKey> scopeKeys) {
            super("scope keys not locked: " + scopeKeys, null, false, false);
            this.scopeKeys = Set.copyOf(scopeKeys);
        }

        Set<ScopeKey> scopeKeys() {
            return scopeKeys;
        }
    }
}
