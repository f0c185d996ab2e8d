package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.Limits;
import io.risklimits.decision.ReadResult;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.WindowCalendar;
import io.risklimits.shared.Failpoints;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcOperations;
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
            } catch (BatchLocks.ScopesNotLocked notLocked) {
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
     * an account not locked, {@link BatchLocks.ScopesNotLocked} rolls the batch back to lock it too.
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
        Supplier<BatchLocks.Begun> begun = BatchLocks.begin(keys, scopeKeys, reversals, reads);
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
        BatchLocks.requireLocked(originals.get(), begun.get().lockedScopeKeys());
        Instant decidedAt = begun.get().decidedAt();
        Instant bucket = decidedAt.truncatedTo(ChronoUnit.HOURS);
        UsageReading reading =
                bucket.equals(expectedBucket) ? expectedReading.get() : runningUsage.usageUpTo(usageKeys, bucket);
        return new UnderLocks(decidedAt, bucket, stored.get(), reading, originals.get());
    }
}
