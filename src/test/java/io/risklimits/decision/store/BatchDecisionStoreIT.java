package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.DecisionJson;
import io.risklimits.decision.Direction;
import io.risklimits.decision.EventType;
import io.risklimits.decision.Limit;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Scope;
import io.risklimits.decision.Tally;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Window;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.TestInfrastructure;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * What the batched decider reads in the round trip that takes its locks: the usage of the database's
 * hour, whatever this machine's clock says, and the time the locks kept it waiting; and what it writes
 * to the audit log.
 */
@ExtendWith(NoRowsLeftBehind.class)
class BatchDecisionStoreIT {

    private final DataSource dataSource = TestInfrastructure.get().dataSource();
    private final JdbcTemplate db = new JdbcTemplate(dataSource);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final SummedUsage summed = new SummedUsage(dataSource);
    private final FiledDecisions filedDecisions = new FiledDecisions(JdbcClient.create(dataSource));
    private final TestKeys ownKeys = new TestKeys();

    @AfterEach
    void deleteTheRowsOfTheTestsKeys() {
        ownKeys.deleteTheirRows(db);
    }

    /**
     * The usage read is sent with the locks, before the database clock has named the batch's hour
     * bucket, so it is for the hour of this machine's clock; when the two differ (the hour turned in
     * between, or the clocks disagree) the usage must still be that of the database's hour.
     * A bucket 23 hours back is in the 24-hour window of this hour but not of the next; one 24 hours
     * back is in that of the previous hour but not of this one: a read for the wrong hour shows.
     */
    @ParameterizedTest(name = "this machine''s clock {0} minutes off")
    @ValueSource(ints = {60, -60, 24 * 60})
    void usageIsThatOfTheDatabasesHourWhateverTheHourOfThisMachine(int minutesOff) {
        BusinessKey key = ownKeys.newKey();
        Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
        BucketRows.add(db, key, utc(hour.minus(Duration.ofHours(24))), 1000);
        BucketRows.add(db, key, utc(hour.minus(Duration.ofHours(23))), 100);
        Usage before = summed.usageUpTo(key, hour);
        Clock offClock = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(minutesOff));

        Decision decision = TestStores.batchDecisionStore(dataSource, offClock, registry)
                .decideAll(List.of(event(key)), anyKey -> TestStores.FAR_LIMITS)
                .get(0);

        assumeTrue(decision.bucketTs().equals(hour), "the hour turned during the test");
        assertThat(decision.usage().of(Window.LAST_24_HOURS))
                .as("the bucket 23 hours back counts, the one 24 hours back does not")
                .isEqualTo(new Tally(100, 1));
        assertThat(decision.usage().byWindow()).isEqualTo(before.byWindow());
    }

    /** The locks are taken in the same round trip as the reads, so the database measures the wait. */
    @Test
    void theLockWaitMeterCountsTheTimeABatchWaitedForItsKey() throws Exception {
        BusinessKey key = ownKeys.newKey();
        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            BatchBegin.begin(holder, key.entityId());
            CompletableFuture<List<Decision>> batch = CompletableFuture.supplyAsync(
                    () -> TestStores.batchDecisionStore(dataSource, Clock.systemUTC(), registry)
                            .decideAll(List.of(event(key)), anyKey -> Limits.NONE));
            awaitAWaiterForTheLockOf(key);
            TimeUnit.MILLISECONDS.sleep(200);
            holder.commit();
            batch.get(10, TimeUnit.SECONDS);
        }

        Timer lockWait = registry.get("risk.decider.lock.wait").timer();
        assertThat(lockWait.count()).isEqualTo(1);
        assertThat(lockWait.totalTime(TimeUnit.MILLISECONDS))
                .as("it was waiting before the holder slept 200 ms and committed")
                .isGreaterThanOrEqualTo(200);
    }

    /**
     * A batch that counts at an account holds the account's locks from its account step to its commit, its
     * writes included: a write kept waiting 200 ms on the account's bucket row shows in the meter, which the
     * lock wait does not count. A batch without an account records nothing.
     */
    @Test
    void theAccountLocksHeldMeterCountsABatchFromItsAccountStepToItsCommit() throws Exception {
        UUID account = ownKeys.newAccount();
        BusinessKey key = ownKeys.newKey();
        BatchDecisionStore store = TestStores.batchDecisionStore(dataSource, Clock.systemUTC(), registry);
        store.decideAll(List.of(event(ownKeys.newKey())), anyKey -> Limits.NONE);
        Timer held = registry.get("risk.decider.account.locks.held").timer();
        assertThat(held.count()).as("a batch without an account").isZero();
        Instant hour = store.decideAll(List.of(event(key, account)), anyKey -> Limits.NONE)
                .get(0)
                .bucketTs();
        assertThat(held.count()).isEqualTo(1);

        Instant blockedHour;
        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            try (var lockTheAccountsBucket = holder.prepareStatement(
                    "SELECT 1 FROM risk_scope_hourly_agg WHERE scope = 'account' AND owner_id = ? FOR UPDATE")) {
                lockTheAccountsBucket.setObject(1, account);
                lockTheAccountsBucket.executeQuery().close();
            }
            CompletableFuture<List<Decision>> batch = CompletableFuture.supplyAsync(
                    () -> store.decideAll(List.of(event(key, account)), anyKey -> Limits.NONE));
            awaitAWriteWaitingForARowLock();
            TimeUnit.MILLISECONDS.sleep(200);
            holder.commit();
            blockedHour = batch.get(10, TimeUnit.SECONDS).get(0).bucketTs();
        }

        assumeTrue(blockedHour.equals(hour), "the hour turned during the test: the batch wrote another bucket");
        assertThat(held.count()).isEqualTo(2);
        assertThat(held.totalTime(TimeUnit.MILLISECONDS))
                .as("its write waited 200 ms for the account's bucket row before it could commit")
                .isGreaterThanOrEqualTo(200);
    }

    /**
     * A batch's audit rows are written with each distinct set of limits sent once and named by number:
     * every row must hold the limits its own decision applied, and no row may go missing, whatever
     * the order in which the sets first appear.
     */
    @Test
    void everyAuditRowHoldsTheLimitsOfItsOwnDecision() {
        Limits tight = limits(5_000, 10);
        Limits loose = limits(9_000_000, 1_000);
        BusinessKey first = ownKeys.newKey();
        BusinessKey second = new BusinessKey(ownKeys.newEntity(), "CARD", Direction.IN);
        BusinessKey third = new BusinessKey(ownKeys.newEntity(), "WIRE", Direction.OUT);
        Map<BusinessKey, Limits> limitsByKey = Map.of(first, loose, second, tight, third, Limits.NONE);
        List<TransactionEvent> events = List.of(
                event(first), event(second), event(first), event(third), event(second), event(third), event(first));

        List<Decision> decisions = TestStores.batchDecisionStore(dataSource, Clock.systemUTC(), registry)
                .decideAll(events, key -> key.scope() == Scope.KEY ? limitsByKey.get(key.businessKey()) : Limits.NONE);

        for (Decision decision : decisions) {
            BusinessKey key = decision.fields().businessKey().orElseThrow();
            Decision filed = filedDecisions.find(key, decision.dedupeId()).orElseThrow();
            // as written and read back: a window without a limit is spelled out as unlimited
            assertThat(filed.limits())
                    .as("stored limits of %s", key)
                    .isEqualTo(DecisionJson.limits(DecisionJson.limits(limitsByKey.get(key))));
        }
    }

    /**
     * A batch does not read the stored decisions up front; one that meets events decided before must
     * still answer them with those decisions, and count them in the bucket once, not again.
     */
    @Test
    void eventsDecidedBeforeAreAnsweredWithTheStoredDecisionAndCountOnce() {
        BusinessKey key = ownKeys.newKey();
        TransactionEvent decidedBefore = event(key);
        TransactionEvent fresh = event(key);
        BatchDecisionStore store = TestStores.batchDecisionStore(dataSource, Clock.systemUTC(), registry);
        Decision stored = store.decideAll(List.of(decidedBefore), anyKey -> TestStores.FAR_LIMITS)
                .get(0);

        List<Decision> answers =
                store.decideAll(List.of(decidedBefore, fresh, decidedBefore), anyKey -> TestStores.FAR_LIMITS);

        Decision filed = filedDecisions.find(key, decidedBefore.dedupeId()).orElseThrow();
        assertThat(filed.decidedAt()).isEqualTo(stored.decidedAt());
        assertThat(answers.get(0)).isEqualTo(filed.asReplay());
        assertThat(answers.get(2)).isEqualTo(filed.asReplay());
        assertThat(answers.get(1).replayed()).isFalse();
        assertThat(answers.get(1).usage().of(Window.LAST_24_HOURS))
                .as("the fresh event sees the one decided before, once")
                .isEqualTo(new Tally(10, 1));
        assertThat(summed.usageUpTo(key, answers.get(1).bucketTs()).of(Window.LAST_24_HOURS))
                .as("two events of 10 approved, each counted once")
                .isEqualTo(new Tally(20, 2));
        assertThat(registry.get("risk.decider.batch.replay.retries").counter().count())
                .isEqualTo(1.0);
    }

    private void awaitAWriteWaitingForARowLock() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (db.queryForObject(
                        "SELECT count(*) FROM pg_locks WHERE locktype IN ('transactionid', 'tuple') AND NOT granted",
                        Long.class)
                == 0) {
            assertThat(System.nanoTime())
                    .as("a batch's write waiting for the row")
                    .isLessThan(deadline);
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    private void awaitAWaiterForTheLockOf(BusinessKey key) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (db.queryForObject(
                        """
                        SELECT count(*)
                        FROM pg_locks
                        WHERE locktype = 'advisory'
                          AND NOT granted
                          AND (classid::bigint << 32 | objid::bigint) = risk_business_key_hash(?, ?, ?)
                        """,
                        Long.class,
                        key.entityId(),
                        key.channel(),
                        key.direction().name())
                == 0) {
            assertThat(System.nanoTime())
                    .as("a batch waiting for the key's lock")
                    .isLessThan(deadline);
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    private static TransactionEvent event(BusinessKey key) {
        return new TransactionEvent(UUID.randomUUID(), key, 10, "USD", Instant.now());
    }

    private static TransactionEvent event(BusinessKey key, UUID account) {
        return new TransactionEvent(
                UUID.randomUUID(), key, 10, "USD", Instant.now(), EventType.AUTHORIZATION, null, account);
    }

    private static Limits limits(long maxAmount, long maxCount) {
        Map<Window, Limit> byWindow = new EnumMap<>(Window.class);
        for (Window window : Window.values()) {
            byWindow.put(window, new Limit(maxAmount, maxCount));
        }
        return new Limits(byWindow);
    }

    private static LocalDateTime utc(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
