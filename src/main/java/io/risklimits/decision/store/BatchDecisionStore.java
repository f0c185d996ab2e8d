package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.FxPolicy;
import io.risklimits.decision.Limits;
import io.risklimits.decision.ReadResult;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.WindowCalendar;
import io.risklimits.decision.hold.HoldTerms;
import io.risklimits.shared.Failpoints;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Lock-and-decide for a whole poll in one READ COMMITTED transaction: the advisory locks of all its
 * business keys and scope keys (the entity and account scopes its events count at, docs/adr/0005; taken
 * in one order, so batches cannot deadlock: {@link BatchLocks}), the usage of every scope key, the
 * originals of its follow-ups and the holds due at its scope keys in set-based reads, the due holds of
 * its own keys expired and the decisions made in event order in memory ({@link InOrderDecisions}), then
 * the buckets, the releases, the ledgers and the audit rows written in bulk. Two round trips, three for
 * a batch that counts at accounts (or releases there): the locks with the reads ({@link RoundTrip}; the
 * account scopes' in a second), the writes with the commit. The poll's INVALID events that have a readable
 * business key are filed in the same transaction, in their place in the order, so an event after one in
 * the poll finds it decided, as it would in a later poll.
 *
 * <p>Events already decided (redelivered after a crash or a rebalance) are rare, so a batch first
 * assumes there are none and does not read the stored decisions: if one was stored, the audit insert
 * fails on the primary key, the transaction is rolled back, and the batch is decided again with the
 * stored decisions read under the locks, as the answers for those events. The same happens, as rarely,
 * when a writer that does not take the locks (an operator's backfill) added a key's bucket of this hour
 * after the batch read none: decided again, the batch reads it and adds to it.
 * A batch of one is how a record is decided alone (after its batch failed for a reason tied to one of
 * its records): the same statements, the same guarantees.
 */
@Service
public class BatchDecisionStore {

    private final JdbcOperations jdbc;
    private final WindowCalendar calendar;
    private final TransactionTemplate readCommitted;
    private final RequestLogWriter requestLogWriter;
    private final HourlyUsageRepository hourlyUsage;
    private final HoldLedgers holdLedgers;
    private final HoldTerms holdTerms;
    private final FxPolicy fx;
    private final DecisionStoreMetrics metrics;
    private final BatchReads reads;
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
            HoldLedgers holdLedgers,
            HoldTerms holdTerms,
            FxPolicy fx,
            DecisionStoreMetrics metrics,
            Failpoints failpoints) {
        this.jdbc = jdbc;
        this.calendar = calendar;
        // the session's READ COMMITTED (spring.datasource.hikari.transaction-isolation), checked by
        // the database in the first statement: setting it here would cost a round trip per batch
        this.readCommitted = new TransactionTemplate(transactionManager);
        this.requestLogWriter = requestLogWriter;
        this.hourlyUsage = hourlyUsage;
        this.holdLedgers = holdLedgers;
        this.holdTerms = holdTerms;
        this.fx = fx;
        this.metrics = metrics;
        this.failpoints = failpoints;
        this.reads = new BatchReads(jdbc, clock, requestLogReader, runningUsage, holdLedgers, metrics);
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
     * Returns one decision per event. limitsOf must answer the same for a scope key throughout the call
     * (one snapshot of the limits): a scope key's usage is read only when its limits check it.
     */
    public List<Decision> decideInOrder(List<ReadResult> events, Function<ScopeKey, Limits> limitsOf) {
        if (events.isEmpty()) {
            return List.of();
        }
        try {
            return decideInOrder(events, limitsOf, false);
        } catch (DuplicateKeyException someEventsWereDecidedBefore) {
            metrics.batchDecidedAgainForReplays();
            // a second failure (any other unique key) is the batch's own, and propagates
            return decideInOrder(events, limitsOf, true);
        }
    }

    private List<Decision> decideInOrder(
            List<ReadResult> events, Function<ScopeKey, Limits> limitsOf, boolean readStored) {
        return metrics.timeTransaction(() -> inTransaction(() -> decide(events, limitsOf, readStored), decided -> {
            failpoints.reached(Failpoints.Point.BEFORE_COMMIT);
            writeAndCommit(decided.decisions(), decided.read());
            metrics.batchDecided(decided.decisions().validEvents());
            return decided.decisions().answers();
        }));
    }

    // what a batch read under its locks, and what it decided from it
    private record Decided(BatchReads.UnderLocks read, InOrderDecisions decisions) {}

    // locks, reads the usage of the scope keys whose limits check it, and decides; should a decision need
    // the usage of a key it did not read (UsageUnread), reads again with that key's usage, nothing written yet
    private Decided decide(List<ReadResult> events, Function<ScopeKey, Limits> limitsOf, boolean readStored) {
        Set<ScopeKey> usageNeeded = new HashSet<>();
        Predicate<ScopeKey> usageRead = checksUsage(limitsOf).or(usageNeeded::contains);
        while (true) {
            BatchReads.UnderLocks read = reads.lockAndRead(events, Set.of(), readStored, usageRead);
            try {
                return new Decided(
                        read, decisions(read, limitsOf).expire(read.due()).decide(events));
            } catch (UsageUnread unread) {
                usageNeeded.add(unread.key());
            }
        }
    }

    /**
     * Locks, reads and decides, then writes and commits, in one READ COMMITTED transaction; records how long
     * it held account scope locks, from its account step to its commit (the stretch in which batches that
     * share an account wait for each other).
     */
    private <T> T inTransaction(Supplier<Decided> decide, Function<Decided, T> commit) {
        AtomicReference<OptionalLong> accountLocksTaken = new AtomicReference<>(OptionalLong.empty());
        T result = readCommitted.execute(status -> {
            Decided decided = decide.get();
            accountLocksTaken.set(decided.read().accountLocksTaken());
            return commit.apply(decided);
        });
        accountLocksTaken.get().ifPresent(metrics::accountLocksReleased);
        return result;
    }

    /**
     * Expires the holds of these business keys that are due now, under the locks of every scope key they
     * count at, as a batch of their keys would before deciding: each given back to the hours it was
     * counted in and filed with its EXPIRED decision (sent later, {@link #unpublishedExpiries}). A hold
     * expired already, by a batch or another sweep, is not expired again. Returns how many expired.
     */
    public int expireDueHolds(Set<BusinessKey> keys) {
        if (keys.isEmpty()) {
            return 0;
        }
        return inTransaction(
                () -> {
                    BatchReads.UnderLocks read = reads.lockAndRead(List.of(), keys, false, scopeKey -> false);
                    return new Decided(
                            read, decisions(read, scopeKey -> Limits.NONE).expire(read.due()));
                },
                decided -> {
                    writeAndCommit(decided.decisions(), decided.read());
                    return decided.decisions().holds().expiries().size();
                });
    }

    // the scope keys whose usage a decision needs: those with a limit, or a shadow limit, on a window of usage
    private static Predicate<ScopeKey> checksUsage(Function<ScopeKey, Limits> limitsOf) {
        return scopeKey -> limitsOf.apply(scopeKey).checkUsage();
    }

    private InOrderDecisions decisions(BatchReads.UnderLocks read, Function<ScopeKey, Limits> limitsOf) {
        return new InOrderDecisions(
                read.bucket(),
                read.decidedAt(),
                calendar,
                holdTerms,
                fx,
                limitsOf,
                read.stored(),
                read.reading(),
                read.originals(),
                read.locked()::contains);
    }

    /**
     * Writes what the batch decided and commits, in one round trip: the commit is its last statement, run
     * only if every write before it succeeded (the first failure ends the round trip, and the transaction
     * manager rolls back), so the locks are let go one round trip sooner; the transaction manager's commit
     * then finds no transaction open, which the driver does not send. Nothing may touch the database
     * after it inside the transaction.
     */
    private void writeAndCommit(InOrderDecisions decided, BatchReads.UnderLocks read) {
        RoundTrip writes = new RoundTrip(jdbc);
        BucketWrites buckets = BucketWrites.of(
                decided.counts().counted(),
                decided.counts().releases(),
                read.bucket(),
                read.reading().latestBuckets());
        hourlyUsage.addToBuckets(
                buckets.thisHour(), read.bucket(), read.reading().latestBuckets(), writes);
        hourlyUsage.releaseFromBuckets(buckets.otherHours(), read.bucket(), writes);
        holdLedgers.saveAll(decided.holds().ledgers(), writes);
        RequestLogWriter.Batch batch =
                new RequestLogWriter.Batch(decided::decidedOrder, read.bucket(), read.decidedAt());
        requestLogWriter.insertAllLimitChecked(decided.authorizations(), batch, writes);
        requestLogWriter.insertAllFollowUps(decided.followUps(), batch, writes);
        requestLogWriter.insertAllFollowUps(decided.holds().expiries(), batch, writes);
        requestLogWriter.insertAllInvalid(decided.invalid(), batch, writes);
        writes.commit();
        writes.run();
    }
}
