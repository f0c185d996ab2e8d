package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.Direction;
import io.risklimits.decision.EventType;
import io.risklimits.decision.Limit;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Reason;
import io.risklimits.decision.Scope;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Tally;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.Window;
import io.risklimits.decision.hold.HoldTerms;
import io.risklimits.support.NoRowsLeftBehind;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The hold lifecycle through the batched store against a real PostgreSQL, on a database clock the test
 * sets: captures (exact, under, over, split, without an authorization), increments, reversals of holds,
 * expiry at decision time without any sweep (at every scope), and the sweep's expiry under the locks.
 */
@ExtendWith(NoRowsLeftBehind.class)
class HoldsIT {

    private static final Instant START =
            Instant.now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofMinutes(10));

    private final SetDatabaseClock clock = new SetDatabaseClock(START);
    private final JdbcTemplate db = new JdbcTemplate(clock.dataSource());
    private final BatchDecisionStore store = TestStores.batchDecisionStore(clock.dataSource(), clock.clock());
    private final TestKeys keys = clock.keys();

    @AfterEach
    void closeClock() {
        clock.close();
    }

    @Test
    void aCardAuthorizationIsAHoldForTheHoldTime() {
        BusinessKey key = cardKey();

        Decision approved = decide(authorization(key, 1_000));

        assertThat(approved.verdict()).isEqualTo(Verdict.APPROVED);
        assertThat(approved.holdExpiresAt()).isEqualTo(START.plus(HoldTerms.DEFAULT.ttl()));
        assertThat(decide(authorization(keys.newKey("ACH"), 1_000)).holdExpiresAt())
                .as("an ACH authorization is a final spend")
                .isNull();
    }

    @Test
    void aFinalCaptureForLessTurnsHeldIntoSpentAndReleasesTheRest() {
        BusinessKey key = cardKey();
        TransactionEvent authorization = authorization(key, 1_000);
        decide(authorization);

        Decision captured = decide(capture(key, authorization, 800, true));

        assertThat(captured.verdict()).isEqualTo(Verdict.CAPTURED);
        assertThat(captured.captured()).isEqualTo(800);
        assertThat(captured.overCaptured()).isZero();
        assertThat(captured.released()).isEqualTo(new Tally(200, 0));
        assertThat(captured.remaining()).isEqualTo(800);
        assertThat(counted(ScopeKey.of(key))).isEqualTo(new Tally(800, 1));
    }

    @Test
    void aTipIsCountedAnewBeyondWhatWasHeldWhateverTheLimitsSay() {
        BusinessKey key = cardKey();
        TransactionEvent authorization = authorization(key, 1_000);
        decide(authorization);
        Limits tight = new Limits(Map.of(Window.LAST_24_HOURS, new Limit(1_000L, 100L)));

        Decision captured = store.decideAll(List.of(capture(key, authorization, 1_150, true)), any -> tight)
                .get(0);

        assertThat(captured.verdict()).isEqualTo(Verdict.CAPTURED);
        assertThat(captured.captured()).isEqualTo(1_000);
        assertThat(captured.overCaptured()).isEqualTo(150);
        assertThat(counted(ScopeKey.of(key))).isEqualTo(new Tally(1_150, 1));
        assertThat(counted(entityOf(key))).isEqualTo(new Tally(1_150, 1));
    }

    @Test
    void splitCapturesTakeFromTheHoldUntilTheFinalOneClosesIt() {
        BusinessKey key = cardKey();
        TransactionEvent authorization = authorization(key, 1_000);
        decide(authorization);

        Decision first = decide(capture(key, authorization, 300, false));
        Decision last = decide(capture(key, authorization, 300, true));
        Decision late = decide(capture(key, authorization, 50, true));

        assertThat(first.released()).isNull();
        assertThat(first.remaining()).isEqualTo(1_000);
        assertThat(last.released()).isEqualTo(new Tally(400, 0));
        assertThat(last.remaining()).isEqualTo(600);
        assertThat(late.overCaptured())
                .as("the hold is closed: a later capture is counted anew")
                .isEqualTo(50);
        assertThat(counted(ScopeKey.of(key))).isEqualTo(new Tally(650, 1));
    }

    @Test
    void aCaptureWithoutAnAuthorizationIsCountedWithACountOfItsOwn() {
        BusinessKey key = cardKey();

        Decision captured = decide(capture(key, authorization(key, 1), 500, true));

        assertThat(captured.verdict()).isEqualTo(Verdict.CAPTURED);
        assertThat(captured.captured()).isZero();
        assertThat(captured.overCaptured()).isEqualTo(500);
        assertThat(captured.remaining()).isNull();
        assertThat(counted(ScopeKey.of(key))).isEqualTo(new Tally(500, 1));
    }

    @Test
    void anIncrementIsCheckedLikeAnAuthorizationOfItsAmountAndAddsNoCount() {
        BusinessKey key = cardKey();
        TransactionEvent authorization = authorization(key, 600);
        Limits limits =
                new Limits(Map.of(Window.TXN, new Limit(1_000L, null), Window.LAST_24_HOURS, new Limit(2_000L, 1L)));
        store.decideAll(List.of(authorization), any -> limits);
        Instant later = START.plus(Duration.ofDays(3));

        Decision grown = store.decideAll(List.of(increment(key, authorization, 300, later)), any -> limits)
                .get(0);
        Decision overTheCap = store.decideAll(List.of(increment(key, authorization, 200, null)), any -> limits)
                .get(0);

        assertThat(grown.verdict())
                .as("the count limit of 1 does not refuse it: it adds no count")
                .isEqualTo(Verdict.APPROVED);
        assertThat(grown.holdExpiresAt()).isEqualTo(later);
        assertThat(overTheCap.verdict()).isEqualTo(Verdict.REJECTED);
        assertThat(overTheCap.reason())
                .as("txn caps the hold's total: 600 + 300 + 200")
                .isEqualTo(Reason.LIMIT_TXN_AMOUNT);
        assertThat(counted(ScopeKey.of(key))).isEqualTo(new Tally(900, 1));
    }

    @Test
    void anIncrementOfAClosedOrMissingHoldIsRefused() {
        BusinessKey key = cardKey();
        TransactionEvent captured = authorization(key, 100);
        decide(captured);
        decide(capture(key, captured, 100, true));
        BusinessKey ach = keys.newKey("ACH");
        TransactionEvent finalSpend = authorization(ach, 100);
        decide(finalSpend);

        assertThat(decide(increment(key, captured, 10, null)).reason()).isEqualTo(Reason.HOLD_CLOSED);
        assertThat(decide(increment(ach, finalSpend, 10, null)).reason()).isEqualTo(Reason.ORIGINAL_NOT_APPROVED);
        assertThat(decide(increment(key, authorization(key, 1), 10, null)).reason())
                .isEqualTo(Reason.ORIGINAL_NOT_FOUND);
    }

    /** A follow-up decided earlier in the batch is no approved authorization for a later one to name. */
    @Test
    void aFollowUpEarlierInTheBatchIsNotAnApprovedOriginal() {
        BusinessKey key = cardKey();
        TransactionEvent authorization = authorization(key, 500);
        TransactionEvent reversal = reversal(key, authorization, 100);

        List<Decision> decided = store.decideAll(
                List.of(authorization, reversal, increment(key, reversal, 10, null)), any -> Limits.NONE);

        assertThat(decided.get(2).reason()).isEqualTo(Reason.ORIGINAL_NOT_APPROVED);
    }

    @Test
    void aReversalOfAHoldReleasesTheMostRecentlyCountedPartFirst() {
        BusinessKey key = cardKey();
        TransactionEvent authorization = authorization(key, 500);
        decide(authorization);
        clock.set(START.plus(Duration.ofHours(2)));
        decide(increment(key, authorization, 300, null));

        Decision released = decide(reversal(key, authorization, 400));

        assertThat(released.released()).isEqualTo(new Tally(400, 0));
        assertThat(released.remaining()).isEqualTo(400);
        assertThat(bucket(ScopeKey.of(key), START)).isEqualTo(new Tally(400, 1));
        assertThat(bucket(ScopeKey.of(key), START.plus(Duration.ofHours(2)))).isEqualTo(new Tally(0, 0));
    }

    /** No sweep runs here: the next decision of the key expires the hold first. */
    @Test
    void aDecisionAtOrAfterTheExpiryNeverCountsTheHold() {
        BusinessKey key = cardKey();
        Instant expiresAt = START.plus(Duration.ofHours(1));
        TransactionEvent hold = holdUntil(key, 700, expiresAt);
        decide(hold);
        clock.set(expiresAt);

        Decision next = decide(authorization(key, 10));

        assertThat(next.usage().of(Window.LAST_24_HOURS)).isEqualTo(new Tally(0, 0));
        assertThat(counted(ScopeKey.of(key))).isEqualTo(new Tally(10, 1));
        Decision expiry = expiryOf(key, hold);
        assertThat(expiry.verdict()).isEqualTo(Verdict.EXPIRED);
        assertThat(expiry.fields().type()).isEqualTo(EventType.EXPIRY);
        assertThat(expiry.fields().original()).isEqualTo(hold.dedupeId());
        assertThat(expiry.released()).isEqualTo(new Tally(700, 1));
        assertThat(expiry.remaining()).isZero();
        assertThat(expiry.holdExpiresAt()).isEqualTo(expiresAt);
        assertThat(expiry.dedupeId()).isEqualTo(HoldTerms.expiryId(hold.dedupeId()));
    }

    /** Decided late (after a crash, say): the hold is approved, expired at once, and filed in that order. */
    @Test
    void aHoldApprovedPastItsExpiryExpiresAtOnceAndNoLaterDecisionCountsIt() {
        BusinessKey key = cardKey();
        TransactionEvent hold = holdUntil(key, 700, START.plus(Duration.ofMinutes(30)));
        TransactionEvent next = authorization(key, 10);
        clock.set(START.plus(Duration.ofHours(1)));

        List<Decision> decided = store.decideAll(List.of(hold, next), any -> Limits.NONE);

        assertThat(decided.get(0).verdict()).isEqualTo(Verdict.APPROVED);
        assertThat(decided.get(1).usage().of(Window.LAST_24_HOURS))
                .as("the usage of the next event of the batch")
                .isEqualTo(new Tally(0, 0));
        assertThat(counted(ScopeKey.of(key))).isEqualTo(new Tally(10, 1));
        assertThat(expiryOf(key, hold).released()).isEqualTo(new Tally(700, 1));
        assertThat(db.queryForList(
                        """
                        SELECT dedupe_id FROM risk_request_log
                        WHERE entity_id = ? AND channel_code = ? AND direction_code = ?
                        ORDER BY decided_at, decided_order, type = 'EXPIRY'
                        """,
                        UUID.class,
                        key.entityId(),
                        key.channel(),
                        key.direction().name()))
                .as("the audit log in decision order")
                .containsExactly(hold.dedupeId(), HoldTerms.expiryId(hold.dedupeId()), next.dedupeId());
    }

    /**
     * Holds are due at other keys too (the sweep behind): the batch expires its key's, and leaves the
     * others' to their keys or the sweep.
     */
    @Test
    void aDecisionExpiresItsKeysDueHoldAndLeavesTheOthersDueElsewhere() {
        Instant expiresAt = START.plus(Duration.ofHours(1));
        List<TransactionEvent> elsewhere = Stream.generate(() -> holdUntil(cardKey(), 100, expiresAt))
                .limit(3)
                .toList();
        store.decideAll(elsewhere, any -> Limits.NONE);
        BusinessKey key = cardKey();
        TransactionEvent hold = holdUntil(key, 700, expiresAt);
        decide(hold);
        clock.set(expiresAt);

        Decision next = decide(authorization(key, 10));

        assertThat(next.usage().of(Window.LAST_24_HOURS)).isEqualTo(new Tally(0, 0));
        assertThat(expiryOf(key, hold).released()).isEqualTo(new Tally(700, 1));
        assertThat(statuses(elsewhere)).containsOnly("OPEN");
    }

    /** A batch of many keys expires the due holds of its own keys, wherever they are in the batch, and no others. */
    @Test
    void aBatchOfManyKeysExpiresItsOwnKeysDueHoldsOnly() {
        Instant expiresAt = START.plus(Duration.ofHours(1));
        List<BusinessKey> batchKeys = Stream.generate(this::cardKey).limit(100).toList();
        TransactionEvent first = holdUntil(batchKeys.get(0), 700, expiresAt);
        TransactionEvent last = holdUntil(batchKeys.get(99), 300, expiresAt);
        TransactionEvent elsewhere = holdUntil(cardKey(), 100, expiresAt);
        store.decideAll(List.of(first, last, elsewhere), any -> Limits.NONE);
        clock.set(expiresAt);

        List<Decision> decided = store.decideAll(
                batchKeys.stream().map(key -> authorization(key, 10)).toList(), any -> Limits.NONE);

        assertThat(decided.get(0).usage().of(Window.LAST_24_HOURS)).isEqualTo(new Tally(0, 0));
        assertThat(decided.get(99).usage().of(Window.LAST_24_HOURS)).isEqualTo(new Tally(0, 0));
        assertThat(expiryOf(batchKeys.get(0), first).released()).isEqualTo(new Tally(700, 1));
        assertThat(expiryOf(batchKeys.get(99), last).released()).isEqualTo(new Tally(300, 1));
        assertThat(statuses(List.of(elsewhere))).containsOnly("OPEN");
    }

    @Test
    void aCaptureAtTheExpiryInstantIsALateCaptureCountedAnew() {
        BusinessKey key = cardKey();
        Instant expiresAt = START.plus(Duration.ofHours(1));
        TransactionEvent hold = holdUntil(key, 700, expiresAt);
        decide(hold);
        clock.set(expiresAt);

        Decision captured = decide(capture(key, hold, 700, true));

        assertThat(captured.captured()).isZero();
        assertThat(captured.overCaptured()).isEqualTo(700);
        assertThat(expiryOf(key, hold).released()).isEqualTo(new Tally(700, 1));
        assertThat(bucket(ScopeKey.of(key), START)).isEqualTo(new Tally(0, 0));
        assertThat(counted(ScopeKey.of(key))).isEqualTo(new Tally(700, 1));
    }

    /**
     * Another card of the account decides after the hold's expiry, before any sweep: the account's usage
     * leaves the hold out, though only its own key's batch or the sweep may release it.
     */
    @Test
    void anotherKeyOfTheAccountNeverCountsADueHoldEither() {
        UUID account = keys.newAccount();
        BusinessKey card = cardKey();
        BusinessKey otherCard = cardKey();
        Instant expiresAt = START.plus(Duration.ofHours(1));
        decide(withAccount(holdUntil(card, 900, expiresAt), account));
        Limits accountLimit = new Limits(Map.of(Window.LAST_24_HOURS, new Limit(1_000L, 100L)));
        clock.set(expiresAt);

        Decision other = store.decideAll(
                        List.of(withAccount(authorization(otherCard, 500), account)),
                        scopeKey -> scopeKey.scope() == Scope.ACCOUNT ? accountLimit : Limits.NONE)
                .get(0);

        assertThat(other.verdict()).isEqualTo(Verdict.APPROVED);
        ScopeKey accountScope = new ScopeKey(Scope.ACCOUNT, account, ScopeKey.ALL_CHANNELS, Direction.OUT);
        assertThat(counted(accountScope))
                .as("not released by the other card's batch")
                .isEqualTo(new Tally(1_400, 2));

        assertThat(store.expireDueHolds(Set.of(card))).isOne();
        assertThat(counted(accountScope)).isEqualTo(new Tally(500, 1));
        assertThat(counted(ScopeKey.of(card))).isEqualTo(new Tally(0, 0));
    }

    /**
     * Another worker remembers the key's window starts while the hold counts, 30 hours after it was
     * counted; the hold's expiry in the same hour, made by this worker's sweep, gives back into an hour
     * before the 24-hour window's start: the other worker must read the starts again, or its 24-hour
     * usage would drop by what was given back to an hour outside the window.
     */
    @Test
    void anotherWorkersRememberedWindowStartsSeeAnExpiry() {
        BusinessKey key = cardKey();
        Instant dayLater = START.plus(Duration.ofHours(30));
        // in the same hour as dayLater: the other worker's remembered starts hold for that hour
        Instant expiresAt = dayLater.plus(Duration.ofMinutes(20));
        decide(holdUntil(key, 700, expiresAt));
        try (SetDatabaseClock otherClock = new SetDatabaseClock(dayLater)) {
            BatchDecisionStore other = TestStores.batchDecisionStore(otherClock.dataSource(), otherClock.clock());
            clock.set(dayLater);
            // more in the window than the hold gives back outside it, so a stale start would not go below zero
            decide(authorization(key, 1_000));
            Decision before = other.decideAll(List.of(authorization(key, 10)), any -> TestStores.FAR_LIMITS)
                    .get(0);
            clock.set(expiresAt.plusSeconds(1));
            otherClock.set(expiresAt.plusSeconds(2));

            assertThat(store.expireDueHolds(Set.of(key))).isOne();
            Decision after = other.decideAll(List.of(authorization(key, 10)), any -> TestStores.FAR_LIMITS)
                    .get(0);

            assertThat(before.usage().of(Window.LAST_24_HOURS)).isEqualTo(new Tally(1_000, 1));
            assertThat(before.usage().of(Window.LAST_7_DAYS)).isEqualTo(new Tally(1_700, 2));
            assertThat(after.usage().of(Window.LAST_24_HOURS)).isEqualTo(new Tally(1_010, 2));
            assertThat(after.usage().of(Window.LAST_7_DAYS)).isEqualTo(new Tally(1_010, 2));
        }
    }

    /**
     * A final capture gives back the rest of a hold counted this hour: every window holds this hour, so no
     * window's start moved, and another worker keeps the starts it remembers (no read) and its usage right.
     */
    @Test
    void aReleaseIntoTheCurrentHourLeavesRememberedWindowStartsValid() {
        BusinessKey key = cardKey();
        clock.set(START.minus(Duration.ofHours(3)));
        decide(authorization(key, 50));
        clock.set(START);
        TransactionEvent hold = authorization(key, 1_000);
        decide(hold);
        SimpleMeterRegistry otherMeters = new SimpleMeterRegistry();
        try (SetDatabaseClock otherClock = new SetDatabaseClock(START.plusSeconds(1))) {
            BatchDecisionStore other =
                    TestStores.batchDecisionStore(otherClock.dataSource(), otherClock.clock(), otherMeters);
            other.decideAll(List.of(authorization(key, 10)), any -> TestStores.FAR_LIMITS);

            decide(capture(key, hold, 400, true));
            Decision after = other.decideAll(List.of(authorization(key, 10)), any -> TestStores.FAR_LIMITS)
                    .get(0);

            assertThat(after.usage().of(Window.LAST_24_HOURS)).isEqualTo(new Tally(460, 3));
            assertThat(otherMeters
                            .get("risk.decider.window.starts")
                            .tag("source", "read")
                            .counter()
                            .count())
                    .as("the key and its entity read once, at first sight")
                    .isEqualTo(2);
        }
    }

    @Test
    void sweepersAtOnceExpireAHoldOnce() throws Exception {
        BusinessKey card = cardKey();
        Instant expiresAt = START.plus(Duration.ofHours(1));
        decide(holdUntil(card, 900, expiresAt));
        clock.set(expiresAt.plusSeconds(1));
        int sweepers = 4;
        List<SetDatabaseClock> clocks = java.util.stream.IntStream.range(0, sweepers)
                .mapToObj(i -> new SetDatabaseClock(expiresAt.plusSeconds(1)))
                .toList();
        CyclicBarrier together = new CyclicBarrier(sweepers);
        ExecutorService pool = Executors.newFixedThreadPool(sweepers);
        try {
            List<Future<Integer>> expired = clocks.stream()
                    .map(sweeperClock -> pool.submit(() -> {
                        BatchDecisionStore sweeper =
                                TestStores.batchDecisionStore(sweeperClock.dataSource(), sweeperClock.clock());
                        together.await();
                        return sweeper.expireDueHolds(Set.of(card));
                    }))
                    .toList();
            int total = 0;
            for (Future<Integer> each : expired) {
                total += each.get();
            }
            assertThat(total).isOne();
        } finally {
            pool.shutdownNow();
            clocks.forEach(SetDatabaseClock::close);
        }
        assertThat(counted(ScopeKey.of(card))).isEqualTo(new Tally(0, 0));
        assertThat(counted(entityOf(card))).isEqualTo(new Tally(0, 0));
        assertThat(db.queryForObject(
                        "SELECT count(*) FROM risk_request_log WHERE entity_id = ? AND type = 'EXPIRY'",
                        Long.class,
                        card.entityId()))
                .isOne();
    }

    @Test
    void anExpiryStaysPendingUntilItWasSent() {
        BusinessKey key = cardKey();
        Instant expiresAt = START.plus(Duration.ofHours(1));
        TransactionEvent hold = holdUntil(key, 300, expiresAt);
        decide(hold);
        clock.set(expiresAt);
        assertThat(store.expireDueHolds(Set.of(key))).isOne();
        ExpiryOutbox outbox = TestStores.expiryOutbox(clock.dataSource());

        List<Decision> pending = outbox.pending(10_000);
        Decision mine = pending.stream()
                .filter(expiry -> expiry.fields().original().equals(hold.dedupeId()))
                .findFirst()
                .orElseThrow();
        outbox.sent(List.of(mine));

        assertThat(mine).isEqualTo(expiryOf(key, hold));
        assertThat(outbox.pending(10_000))
                .noneMatch(expiry -> expiry.fields().original().equals(hold.dedupeId()));
        assertThat(store.expireDueHolds(Set.of(key))).as("expired already").isZero();
    }

    @Test
    void aBatchThatCountsAndGivesBackInOneHourLeavesItsBucketAndRunningTotalsAtTheNet() {
        BusinessKey key = cardKey();
        TransactionEvent hold = authorization(key, 1_000);
        decide(hold);

        List<Decision> decided =
                store.decideAll(List.of(authorization(key, 300), capture(key, hold, 800, true)), any -> Limits.NONE);

        assertThat(decided.get(1).released()).isEqualTo(new Tally(200, 0));
        assertThat(bucket(ScopeKey.of(key), START)).isEqualTo(new Tally(1_100, 2));
        assertThat(counted(entityOf(key))).isEqualTo(new Tally(1_100, 2));
        assertThat(db.queryForObject(
                        """
                        SELECT running_amount || '/' || running_count FROM risk_hourly_agg
                        WHERE entity_id = ? AND channel_code = ? AND direction_code = ?
                        ORDER BY bucket_ts DESC LIMIT 1
                        """,
                        String.class,
                        key.entityId(),
                        key.channel(),
                        key.direction().name()))
                .isEqualTo("1100/2");
    }

    @Test
    void aBatchWhoseCountsAndReleasesCancelOutLeavesTheBucketAsItWas() {
        BusinessKey key = keys.newKey("ACH");
        decide(authorization(key, 500));
        TransactionEvent spent = authorization(key, 200);

        List<Decision> decided = store.decideAll(List.of(spent, reversal(key, spent, 200)), any -> Limits.NONE);

        assertThat(decided.get(1).verdict()).isEqualTo(Verdict.RELEASED);
        assertThat(bucket(ScopeKey.of(key), START)).isEqualTo(new Tally(500, 1));
        assertThat(counted(entityOf(key))).isEqualTo(new Tally(500, 1));
    }

    private Decision decide(TransactionEvent event) {
        return store.decideAll(List.of(event), any -> Limits.NONE).get(0);
    }

    private Decision expiryOf(BusinessKey key, TransactionEvent hold) {
        return new FiledDecisions(JdbcClient.create(db))
                .find(key, HoldTerms.expiryId(hold.dedupeId()))
                .orElseThrow();
    }

    /** The status of each hold's ledger. */
    private List<String> statuses(List<TransactionEvent> holds) {
        return holds.stream()
                .map(hold -> db.queryForObject(
                        "SELECT status FROM risk_authorization_ledger WHERE dedupe_id = ?",
                        String.class,
                        hold.dedupeId()))
                .toList();
    }

    /** Everything counted at the scope key, every hour. */
    private Tally counted(ScopeKey key) {
        return db.queryForObject(
                key.scope() == Scope.KEY ? """
                        SELECT coalesce(sum(sum_amount), 0), coalesce(sum(tx_count), 0) FROM risk_hourly_agg
                        WHERE entity_id = ? AND channel_code = ? AND direction_code = ?
                        """ : """
                        SELECT coalesce(sum(sum_amount), 0), coalesce(sum(tx_count), 0) FROM risk_scope_hourly_agg
                        WHERE owner_id = ? AND channel_code = ? AND direction_code = ?
                          AND scope = '%s'
                        """.formatted(key.scope().label()),
                (rs, row) -> new Tally(rs.getLong(1), rs.getLong(2)),
                key.owner(),
                key.channel(),
                key.direction().name());
    }

    /** What the key's bucket of the hour of this instant holds. */
    private Tally bucket(ScopeKey key, Instant at) {
        return db.queryForObject(
                """
                SELECT coalesce(sum(sum_amount), 0), coalesce(sum(tx_count), 0) FROM risk_hourly_agg
                WHERE entity_id = ? AND channel_code = ? AND direction_code = ?
                  AND bucket_ts = date_trunc('hour', CAST(? AS timestamptz) AT TIME ZONE 'UTC')
                """,
                (rs, row) -> new Tally(rs.getLong(1), rs.getLong(2)),
                key.owner(),
                key.channel(),
                key.direction().name(),
                at.toString());
    }

    private static ScopeKey entityOf(BusinessKey key) {
        return ScopeKey.countedAt(key, null).get(1);
    }

    private BusinessKey cardKey() {
        return keys.newKey();
    }

    private static TransactionEvent authorization(BusinessKey key, long amount) {
        return new TransactionEvent(UUID.randomUUID(), key, amount, "USD", START);
    }

    private static TransactionEvent holdUntil(BusinessKey key, long amount, Instant expiresAt) {
        return new TransactionEvent(
                UUID.randomUUID(),
                key,
                amount,
                "USD",
                START,
                EventType.AUTHORIZATION,
                null,
                null,
                null,
                expiresAt,
                true);
    }

    private static TransactionEvent withAccount(TransactionEvent event, UUID account) {
        return new TransactionEvent(
                event.dedupeId(),
                event.businessKey(),
                event.amount(),
                event.currency(),
                event.occurredAt(),
                event.type(),
                event.reverses(),
                account,
                event.original(),
                event.holdExpiresAt(),
                event.isFinal());
    }

    private static TransactionEvent capture(BusinessKey key, TransactionEvent original, long amount, boolean isFinal) {
        return new TransactionEvent(
                UUID.randomUUID(),
                key,
                amount,
                "USD",
                START,
                EventType.CAPTURE,
                null,
                null,
                original.dedupeId(),
                null,
                isFinal);
    }

    private static TransactionEvent increment(
            BusinessKey key, TransactionEvent original, long amount, Instant holdExpiresAt) {
        return new TransactionEvent(
                UUID.randomUUID(),
                key,
                amount,
                "USD",
                START,
                EventType.INCREMENT,
                null,
                null,
                original.dedupeId(),
                holdExpiresAt,
                true);
    }

    private static TransactionEvent reversal(BusinessKey key, TransactionEvent original, long amount) {
        return new TransactionEvent(
                UUID.randomUUID(), key, amount, "USD", START, EventType.REVERSAL, original.dedupeId());
    }
}
