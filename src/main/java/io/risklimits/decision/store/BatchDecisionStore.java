package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.FxPolicy;
import io.risklimits.decision.Limits;
import io.risklimits.decision.ReadResult;
import io.risklimits.decision.Scope;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.WindowCalendar;
import io.risklimits.decision.hold.HoldTerms;
import io.risklimits.shared.Failpoints;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
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
 * the buckets, the releases, the ledgers and the audit rows written in bulk. Three round trips, four for
 * a batch that counts at accounts (or releases there): the locks with the reads ({@link RoundTrip}; the
 * account scopes' in a second), the writes, the commit. The poll's INVALID events that have a readable
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

    // what a batch read under its keys' locks; locked: the scope keys it holds the locks of;
    // accountLocksTaken: System.nanoTime() when its account step returned, its account locks held (empty
    // when it took none)
    private record UnderLocks(
            Instant decidedAt,
            Instant bucket,
            Map<RequestId, Decision> stored,
            UsageReading reading,
            Map<RequestId, StoredOriginal> originals,
            Map<RequestId, StoredOriginal> due,
            Set<ScopeKey> locked,
            OptionalLong accountLocksTaken) {}

    private final JdbcOperations jdbc;
    private final Clock clock;
    private final WindowCalendar calendar;
    private final TransactionTemplate readCommitted;
    private final RequestLogReader requestLogReader;
    private final RequestLogWriter requestLogWriter;
    private final RunningUsageRepository runningUsage;
    private final HourlyUsageRepository hourlyUsage;
    private final HoldLedgers holdLedgers;
    private final HoldTerms holdTerms;
    private final FxPolicy fx;
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
            HoldLedgers holdLedgers,
            HoldTerms holdTerms,
            FxPolicy fx,
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
        this.holdLedgers = holdLedgers;
        this.holdTerms = holdTerms;
        this.fx = fx;
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
        return metrics.timeTransaction(() -> inTransaction(() -> lockAndRead(events, Set.of(), readStored), read -> {
            InOrderDecisions decided =
                    decisions(read, limitsOf).expire(read.due()).decide(events);
            write(decided, read);
            metrics.batchDecided(decided.validEvents());
            failpoints.reached(Failpoints.Point.BEFORE_COMMIT);
            return decided.answers();
        }));
    }

    /**
     * Locks and reads, then does the work, in one READ COMMITTED transaction; records how long it held
     * account scope locks, from its account step to its commit (the stretch in which batches that share
     * an account wait for each other).
     */
    private <T> T inTransaction(Supplier<UnderLocks> lockAndRead, Function<UnderLocks, T> work) {
        AtomicReference<OptionalLong> accountLocksTaken = new AtomicReference<>(OptionalLong.empty());
        T result = readCommitted.execute(status -> {
            UnderLocks read = lockAndRead.get();
            accountLocksTaken.set(read.accountLocksTaken());
            return work.apply(read);
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
        return inTransaction(() -> lockAndRead(List.of(), keys, false), read -> {
            InOrderDecisions decided = decisions(read, scopeKey -> Limits.NONE).expire(read.due());
            write(decided, read);
            return decided.holds().expiries().size();
        });
    }

    private InOrderDecisions decisions(UnderLocks read, Function<ScopeKey, Limits> limitsOf) {
        return new InOrderDecisions(
                read.bucket(),
                read.decidedAt(),
                calendar,
                holdTerms,
                fx,
                limitsOf,
                read.stored(),
                read.reading().usage(),
                read.originals(),
                read.locked()::contains);
    }

    private void write(InOrderDecisions decided, UnderLocks read) {
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
        writes.run();
    }

    /**
     * Locks the events' business keys and scope keys and reads their usage, the originals of their
     * reversals, and their stored decisions if asked: in one round trip the business keys' and entities'
     * locks ({@link BatchLocks#begin}) with their reads and the originals; in a second, when the batch
     * counts at or releases to accounts, the account scopes' locks with their reads. An original is read
     * under its business key's lock (a reversal names the key of its original), so where it was counted
     * is final when its account scopes are locked.
     * The usage reads need the hour bucket before the database clock names it, so they are sent for the
     * hour of this machine's clock and sent again, alone, in the rare batch whose database hour (the
     * clock after the last lock) is another (the hour turned in between, or the clocks disagree).
     */
    private UnderLocks lockAndRead(List<ReadResult> events, Set<BusinessKey> sweptKeys, boolean readStored) {
        List<RequestId> ids = events.stream().map(RequestId::of).toList();
        Set<BusinessKey> keys = new LinkedHashSet<>(sweptKeys);
        ids.forEach(id -> keys.add(id.businessKey()));
        List<TransactionEvent> valid = events.stream()
                .filter(ReadResult.Valid.class::isInstance)
                .map(event -> ((ReadResult.Valid) event).event())
                .toList();
        List<TransactionEvent> followUps =
                valid.stream().filter(TransactionEvent::isFollowUp).toList();
        Set<ScopeKey> keyScopes = new LinkedHashSet<>();
        keys.forEach(key -> keyScopes.add(ScopeKey.of(key)));
        Set<ScopeKey> accountScopes = new LinkedHashSet<>();
        valid.forEach(event ->
                event.scopeKeys().forEach(key -> (key.scope().ownedByAccount() ? accountScopes : keyScopes).add(key)));
        // a swept key's entity: its holds count there
        sweptKeys.forEach(key -> keyScopes.add(ScopeKey.countedAt(key, null).get(1)));
        Set<ScopeKey> entityScopes = new LinkedHashSet<>(keyScopes);
        entityScopes.removeIf(key -> key.scope() == Scope.KEY);
        Set<ScopeKey> usageKeys = new LinkedHashSet<>(keyScopes);
        if (events.isEmpty()) {
            // a sweep decides nothing: it reads no usage
            usageKeys.clear();
        }
        Instant expectedBucket = clock.instant().truncatedTo(ChronoUnit.HOURS);

        RoundTrip keyReads = new RoundTrip(jdbc);
        Supplier<BatchLocks.Locked> begun = BatchLocks.begin(keys, entityScopes, keyReads);
        Supplier<Map<RequestId, Decision>> stored = readStored ? requestLogReader.findAll(ids, keyReads) : Map::of;
        Supplier<Map<RequestId, StoredOriginal>> originals =
                followUps.isEmpty() ? Map::of : requestLogReader.findOriginals(followUps, keyReads);
        Supplier<Map<RequestId, StoredOriginal>> due = holdLedgers.findDue(entityScopes, keyReads);
        Supplier<UsageReading> keyReading = runningUsage.usageUpTo(usageKeys, expectedBucket, keyReads);
        keyReads.run();
        Duration lockWait = begun.get().lockWait();
        Instant decidedAt = begun.get().decidedAt();

        // the accounts its originals and its own keys' due holds count at: what they give back goes there
        originals
                .get()
                .forEach((id, original) -> addAccountScopes(original.countedAt(id.businessKey()), accountScopes));
        due.get().forEach((id, hold) -> {
            if (keys.contains(id.businessKey())) {
                addAccountScopes(hold.countedAt(id.businessKey()), accountScopes);
            }
        });
        Supplier<UsageReading> accountReading = () -> new UsageReading(Map.of(), Map.of());
        OptionalLong accountLocksTaken = OptionalLong.empty();
        if (!accountScopes.isEmpty()) {
            RoundTrip accountReads = new RoundTrip(jdbc);
            Supplier<BatchLocks.Locked> locked = BatchLocks.lockAccountScopes(accountScopes, accountReads);
            Set<ScopeKey> holdScopes = new LinkedHashSet<>(entityScopes);
            holdScopes.addAll(accountScopes);
            // read again under every lock: due by the clock after the last one
            due = holdLedgers.findDue(holdScopes, accountReads);
            if (!events.isEmpty()) {
                usageKeys.addAll(accountScopes);
                accountReading = runningUsage.usageUpTo(accountScopes, expectedBucket, accountReads);
            }
            accountReads.run();
            accountLocksTaken = OptionalLong.of(System.nanoTime());
            lockWait = lockWait.plus(locked.get().lockWait());
            decidedAt = locked.get().decidedAt();
        }
        metrics.lockWaited(lockWait);
        BatchLocks.requireLocked(originals.get(), accountScopes);
        Instant bucket = decidedAt.truncatedTo(ChronoUnit.HOURS);
        UsageReading reading;
        if (bucket.equals(expectedBucket)) {
            reading = keyReading.get().and(accountReading.get());
        } else {
            reading = runningUsage.usageUpTo(usageKeys, bucket);
        }
        Set<ScopeKey> locked = new LinkedHashSet<>(keyScopes);
        locked.addAll(accountScopes);
        return new UnderLocks(
                decidedAt, bucket, stored.get(), reading, originals.get(), due.get(), locked, accountLocksTaken);
    }

    private static void addAccountScopes(List<ScopeKey> countedAt, Set<ScopeKey> accountScopes) {
        countedAt.stream().filter(key -> key.scope().ownedByAccount()).forEach(accountScopes::add);
    }
}
