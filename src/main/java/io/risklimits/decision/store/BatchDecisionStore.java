package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.Limits;
import io.risklimits.decision.ReadResult;
import io.risklimits.decision.Scope;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.WindowCalendar;
import io.risklimits.shared.Failpoints;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Lock-and-decide for a whole poll in one READ COMMITTED transaction: the advisory locks of all its
 * business keys and scope keys (the entity and account scopes its events count at, docs/adr/0005; one
 * sorted order, so batches cannot deadlock), the usage of every scope key and the originals of its
 * reversals in set-based reads, the decisions made in event order in memory ({@link InOrderDecisions}),
 * then the buckets, the releases and the audit rows written in bulk. Three round trips: the locks with
 * the reads ({@link RoundTrip}), the writes, the commit. The poll's INVALID events that have a readable
 * business key are filed in the same transaction, in their place in the order, so an event after one in
 * the poll finds it decided, as it would in a later poll.
 *
 * <p>Events already decided (redelivered after a crash or a rebalance) are rare, so a batch first
 * assumes there are none and does not read the stored decisions: if one was stored, the audit insert
 * fails on the primary key, the transaction is rolled back, and the batch is decided again with the
 * stored decisions read under the locks, as the answers for those events.
 * A batch of one is how a record is decided alone (after its batch failed for a reason tied to one of
 * its records): the same statements, the same guarantees.
 */
@Service
public class BatchDecisionStore {

    // checks READ COMMITTED, finds the accounts of the follow-ups' originals, locks the business keys and the
    // scope keys (those given and those originals' account scopes) in one order and returns the database
    // clock (docs/adr/0004); the statement started when the server received it, so the difference is the
    // wait for the locks
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

    // originalAccounts: of each reversal's original, in the reversals' order, null where none was found
    private record Begun(Instant decidedAt, Duration lockWait, UUID[] originalAccounts) {}

    /** How a batch is decided: whether it reads stored decisions, and which scope keys it locks beyond its events'. */
    private record Attempt(boolean readStored, Set<ScopeKey> moreScopeKeys) {}

    // what a batch read under its keys' locks
    private record UnderLocks(
            Instant decidedAt,
            Instant bucket,
            Map<RequestId, Decision> stored,
            UsageReading reading,
            Map<RequestId, StoredOriginal> originals) {}

    private final JdbcOperations jdbc;
    private final Clock clock;
    private final WindowCalendar calendar;
    private final TransactionTemplate readCommitted;
    private final RequestLogReader requestLogReader;
    private final RequestLogWriter requestLogWriter;
    private final RunningUsageRepository runningUsage;
    private final HourlyUsageRepository hourlyUsage;
    private final DecisionStoreMetrics metrics;
    private final Failpoints failpoints;

    BatchDecisionStore(
            JdbcOperations jdbc,
            Clock clock,
            WindowCalendar calendar,
            PlatformTransactionManager transactionManager,
            RequestLogReader requestLogReader,
            RequestLogWriter requestLogWriter,
            RunningUsageRepository runningUsage,
            HourlyUsageRepository hourlyUsage,
            DecisionStoreMetrics metrics,
            Failpoints failpoints) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.calendar = calendar;
        // the session's READ COMMITTED (spring.datasource.hikari.transaction-isolation), checked by
        // the database in the first statement: setting it here would cost a round trip per batch
        this.readCommitted = new TransactionTemplate(transactionManager);
        this.requestLogReader = requestLogReader;
        this.requestLogWriter = requestLogWriter;
        this.runningUsage = runningUsage;
        this.hourlyUsage = hourlyUsage;
        this.metrics = metrics;
        this.failpoints = failpoints;
    }

    /**
     * Decides valid events in order, each against the limits, or answers with the decision already
     * made for its dedupe_id (also when made earlier in this batch). Returns one decision per event.
     */
    public List<Decision> decideAll(List<TransactionEvent> events, Function<ScopeKey, Limits> limitsOf) {
        return decideInOrder(
                events.stream().<ReadResult>map(ReadResult.Valid::new).toList(), limitsOf);
    }

    /**
     * Decides the events of a poll in their order: each {@link ReadResult.Valid} against the limits, each
     * {@link ReadResult.Invalid} (which must have a readable business key) filed as INVALID; or answers
     * one with the decision already made for its dedupe_id (also when made earlier in this batch), as a
     * plain replay for an INVALID event, and for a valid one with other content as a dedupe conflict.
     * Returns one decision per event.
     */
    public List<Decision> decideInOrder(List<ReadResult> events, Function<ScopeKey, Limits> limitsOf) {
        if (events.isEmpty()) {
            return List.of();
        }
        Attempt attempt = new Attempt(false, Set.of());
        while (true) {
            try {
                return decideInOrder(events, limitsOf, attempt);
            } catch (DuplicateKeyException someEventsWereDecidedBefore) {
                if (attempt.readStored()) {
                    // a second failure (any other unique key) is the batch's own, and propagates
                    throw someEventsWereDecidedBefore;
                }
                metrics.batchDecidedAgainForReplays();
                attempt = new Attempt(true, attempt.moreScopeKeys());
            } catch (ScopesNotLocked notLocked) {
                // an original's account is fixed once it is committed, so each attempt locks more, and the
                // originals of one batch are few
                Set<ScopeKey> more = new HashSet<>(attempt.moreScopeKeys());
                if (!more.addAll(notLocked.scopeKeys())) {
                    throw new IllegalStateException("scope keys still not locked after locking them: " + more);
                }
                metrics.batchLockedAgainForScopes();
                attempt = new Attempt(attempt.readStored(), more);
            }
        }
    }

    private List<Decision> decideInOrder(
            List<ReadResult> events, Function<ScopeKey, Limits> limitsOf, Attempt attempt) {
        return metrics.timeTransaction(() -> readCommitted.execute(status -> {
            UnderLocks read = lockAndRead(events, attempt);
            Instant bucket = read.bucket();
            InOrderDecisions decided = new InOrderDecisions(
                            bucket,
                            read.decidedAt(),
                            calendar,
                            limitsOf,
                            read.stored(),
                            read.reading().usage(),
                            read.originals())
                    .decide(events);
            RoundTrip writes = new RoundTrip(jdbc);
            hourlyUsage.addToBuckets(decided.approved(), bucket, read.reading().latestBuckets(), writes);
            hourlyUsage.releaseFromBuckets(decided.releases(), writes);
            RequestLogWriter.Batch batch = new RequestLogWriter.Batch(decided::decidedOrder, bucket, read.decidedAt());
            requestLogWriter.insertAllLimitChecked(decided.authorizations(), batch, writes);
            requestLogWriter.insertAllReversals(decided.reversals(), batch, writes);
            requestLogWriter.insertAllInvalid(decided.invalid(), batch, writes);
            writes.run();
            metrics.batchDecided(decided.validEvents());
            failpoints.reached(Failpoints.Point.BEFORE_COMMIT);
            return decided.answers();
        }));
    }

    /**
     * Locks the events' business keys and scope keys and reads their usage, the originals of their
     * reversals, and their stored decisions if asked, in one round trip.
     * The usage read needs the hour bucket before the database clock names it, so it is sent for the
     * hour of this machine's clock and sent again, alone, in the rare batch whose database hour is
     * another (the hour turned in between, or the clocks disagree).
     * A reversal releases where its original was counted: the original's account scopes are locked as
     * well, those of an original committed before the locks by the first statement itself; should one
     * have been committed while it waited for a lock (by the holder of the original's business key) with
     * an account not locked, {@link ScopesNotLocked} rolls the batch back to lock it too.
     */
    private UnderLocks lockAndRead(List<ReadResult> events, Attempt attempt) {
        List<RequestId> ids = events.stream().map(RequestId::of).toList();
        Set<BusinessKey> keys = new LinkedHashSet<>();
        ids.forEach(id -> keys.add(id.businessKey()));
        List<TransactionEvent> valid = events.stream()
                .filter(ReadResult.Valid.class::isInstance)
                .map(event -> ((ReadResult.Valid) event).event())
                .toList();
        List<TransactionEvent> reversals =
                valid.stream().filter(TransactionEvent::isReversal).toList();
        Set<ScopeKey> scopeKeys = new LinkedHashSet<>();
        valid.forEach(event -> scopeKeys.addAll(event.scopeKeys()));
        scopeKeys.addAll(attempt.moreScopeKeys());
        Instant expectedBucket = clock.instant().truncatedTo(ChronoUnit.HOURS);
        RoundTrip reads = new RoundTrip(jdbc);
        Supplier<Begun> begun = reads.query(
                BEGIN_BATCH_DECISION, beginParameters(keys, scopeKeys, reversals), BatchDecisionStore::begun);
        Supplier<Map<RequestId, Decision>> stored =
                attempt.readStored() ? requestLogReader.findAll(ids, reads) : Map::of;
        Supplier<Map<RequestId, StoredOriginal>> originals =
                reversals.isEmpty() ? Map::of : requestLogReader.findOriginals(reversals, reads);
        Set<ScopeKey> usageKeys = new LinkedHashSet<>();
        keys.forEach(key -> usageKeys.add(ScopeKey.of(key)));
        usageKeys.addAll(scopeKeys);
        Supplier<UsageReading> expectedReading = runningUsage.usageUpTo(usageKeys, expectedBucket, reads);
        reads.run();
        metrics.lockWaited(begun.get().lockWait());
        Set<ScopeKey> locked = new HashSet<>(scopeKeys);
        for (int i = 0; i < reversals.size(); i++) {
            locked.addAll(ScopeKey.countedAt(
                    reversals.get(i).businessKey(), begun.get().originalAccounts()[i]));
        }
        requireLocked(originals.get(), locked);
        Instant decidedAt = begun.get().decidedAt();
        Instant bucket = decidedAt.truncatedTo(ChronoUnit.HOURS);
        UsageReading reading =
                bucket.equals(expectedBucket) ? expectedReading.get() : runningUsage.usageUpTo(usageKeys, bucket);
        return new UnderLocks(decidedAt, bucket, stored.get(), reading, originals.get());
    }

    // business keys, scope keys (the business keys' own excluded) and the reversals' originals, as the
    // arrays of risk_begin_scoped_batch_decision
    private static MapSqlParameterSource beginParameters(
            Set<BusinessKey> keys, Set<ScopeKey> scopeKeys, List<TransactionEvent> reversals) {
        List<ScopeKey> aggregate =
                scopeKeys.stream().filter(key -> key.scope() != Scope.KEY).toList();
        return KeyArrays.of(keys)
                .parameters()
                .addValue(
                        "scopes",
                        aggregate.stream().map(key -> key.scope().label()).toArray(String[]::new))
                .addValue("ownerIds", aggregate.stream().map(ScopeKey::owner).toArray(UUID[]::new))
                .addValue(
                        "scopeChannels",
                        aggregate.stream().map(ScopeKey::channel).toArray(String[]::new))
                .addValue(
                        "scopeDirections",
                        aggregate.stream().map(key -> key.direction().name()).toArray(String[]::new))
                .addValue(
                        "originalEntityIds",
                        reversals.stream()
                                .map(event -> event.businessKey().entityId())
                                .toArray(UUID[]::new))
                .addValue(
                        "originalChannels",
                        reversals.stream()
                                .map(event -> event.businessKey().channel())
                                .toArray(String[]::new))
                .addValue(
                        "originalDirections",
                        reversals.stream()
                                .map(event -> event.businessKey().direction().name())
                                .toArray(String[]::new))
                .addValue(
                        "originalDedupeIds",
                        reversals.stream().map(TransactionEvent::reverses).toArray(UUID[]::new));
    }

    // every scope key an original found under the locks was counted at must be locked before it is released
    private static void requireLocked(Map<RequestId, StoredOriginal> originals, Set<ScopeKey> locked) {
        Set<ScopeKey> missing = new LinkedHashSet<>();
        originals.forEach((id, original) -> original.countedAt(id.businessKey()).stream()
                .filter(key -> key.scope() != Scope.KEY && !locked.contains(key))
                .forEach(missing::add));
        if (!missing.isEmpty()) {
            throw new ScopesNotLocked(missing);
        }
    }

    private static Begun begun(ResultSet rs) throws SQLException {
        rs.next();
        return new Begun(
                rs.getObject("decided_at", OffsetDateTime.class).toInstant(),
                Duration.ofNanos(Math.round(rs.getDouble("lock_wait_seconds") * 1e9)),
                (UUID[]) rs.getArray("original_account_ids").getArray());
    }

    /** Scope keys a batch must release at but did not lock: the batch is rolled back and locks them too. */
    private static final class ScopesNotLocked extends RuntimeException {

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
