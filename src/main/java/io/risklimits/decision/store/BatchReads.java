package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.ReadResult;
import io.risklimits.decision.Scope;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.TransactionEvent;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.springframework.jdbc.core.JdbcOperations;

/**
 * The start of a batch's transaction ({@link BatchDecisionStore}): its locks, and what it reads under them
 * before it decides, in one round trip for the business keys and entities and a second for the accounts.
 */
final class BatchReads {

    /**
     * What a batch read under its keys' locks; locked: the scope keys it holds the locks of;
     * accountLocksTaken: System.nanoTime() when its account step returned, its account locks held (empty
     * when it took none).
     */
    record UnderLocks(
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
    private final RequestLogReader requestLogReader;
    private final RunningUsageRepository runningUsage;
    private final HoldLedgers holdLedgers;
    private final DecisionStoreMetrics metrics;

    BatchReads(
            JdbcOperations jdbc,
            Clock clock,
            RequestLogReader requestLogReader,
            RunningUsageRepository runningUsage,
            HoldLedgers holdLedgers,
            DecisionStoreMetrics metrics) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.requestLogReader = requestLogReader;
        this.runningUsage = runningUsage;
        this.holdLedgers = holdLedgers;
        this.metrics = metrics;
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
     * Only the scope keys whose usage a limit checks (usageChecked) have their usage read; the others'
     * latest buckets alone, for the writes.
     */
    UnderLocks lockAndRead(
            List<ReadResult> events, Set<BusinessKey> sweptKeys, boolean readStored, Predicate<ScopeKey> usageChecked) {
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
        Supplier<UsageReading> keyReading = runningUsage.usageUpTo(usageKeys, expectedBucket, usageChecked, keyReads);
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
        Supplier<UsageReading> accountReading = () -> UsageReading.NOTHING;
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
                accountReading = runningUsage.usageUpTo(accountScopes, expectedBucket, usageChecked, accountReads);
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
            reading = runningUsage.usageUpTo(usageKeys, bucket, usageChecked);
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
