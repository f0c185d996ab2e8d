package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.EventType;
import io.risklimits.decision.Limit;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Reason;
import io.risklimits.decision.Tally;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.Window;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.TestInfrastructure;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Reversals through the batched store against a real PostgreSQL: what they give back, to which
 * bucket, what they refuse, how they meet authorizations in one batch, redeliveries and reused
 * dedupe_ids, and that remembered window starts never hide a release.
 */
@ExtendWith(NoRowsLeftBehind.class)
class ReversalsIT {

    private static final Limits ONE_THOUSAND_A_DAY = new Limits(Map.of(Window.LAST_24_HOURS, new Limit(1_000L, 100L)));

    private final DataSource dataSource = TestInfrastructure.get().dataSource();
    private final JdbcTemplate db = new JdbcTemplate(dataSource);
    private final SummedUsage summed = new SummedUsage(dataSource);
    private final BatchDecisionStore store = TestStores.batchDecisionStore(dataSource);

    @Test
    void partialReversalsAddUpAndTheLastOneReleasesTheCount() {
        BusinessKey key = newKey();
        TransactionEvent authorization = authorization(key, 1_000);
        assertThat(decide(authorization).verdict()).isEqualTo(Verdict.APPROVED);

        Decision first = decide(reversal(key, authorization, 300));
        Decision second = decide(reversal(key, authorization, 700));
        Decision third = decide(reversal(key, authorization, 1));

        assertThat(first.verdict()).isEqualTo(Verdict.RELEASED);
        assertThat(first.released()).isEqualTo(new Tally(300, 0));
        assertThat(first.remaining()).isEqualTo(700);
        assertThat(second.released()).isEqualTo(new Tally(700, 1));
        assertThat(second.remaining()).isZero();
        assertThat(third.verdict()).isEqualTo(Verdict.REJECTED);
        assertThat(third.reason()).isEqualTo(Reason.EXCEEDS_REMAINING);
        assertThat(third.remaining()).isZero();
        assertThat(bucketOf(key, authorization)).isEqualTo(new Tally(0, 0));
        assertThat(decide(authorization(key, 1)).usage().of(Window.LAST_30_DAYS))
                .isEqualTo(new Tally(0, 0));
    }

    @Test
    void aReversalThatFindsNoApprovedOriginalIsRejected() {
        BusinessKey key = newKey();
        BusinessKey otherKey = newKey();
        TransactionEvent approved = authorization(key, 100);
        TransactionEvent rejected = authorization(key, 5_000);
        decideAll(List.of(approved, rejected), ONE_THOUSAND_A_DAY);
        TransactionEvent release = reversal(key, approved, 10);
        decide(release);

        Decision unknown = decide(reversal(key, authorization(key, 1), 1));
        Decision underAnotherKey = decide(reversal(otherKey, approved, 10));
        Decision ofARejected = decide(reversal(key, rejected, 10));
        Decision ofAReversal = decide(reversal(key, release, 10));

        assertThat(unknown.reason()).isEqualTo(Reason.ORIGINAL_NOT_FOUND);
        assertThat(underAnotherKey.reason()).isEqualTo(Reason.ORIGINAL_NOT_FOUND);
        assertThat(ofARejected.reason()).isEqualTo(Reason.ORIGINAL_NOT_APPROVED);
        assertThat(ofAReversal.reason()).isEqualTo(Reason.ORIGINAL_NOT_APPROVED);
        assertThat(List.of(unknown, underAnotherKey, ofARejected, ofAReversal)).allSatisfy(decision -> {
            assertThat(decision.verdict()).isEqualTo(Verdict.REJECTED);
            assertThat(decision.released()).isNull();
            assertThat(decision.remaining()).isNull();
        });
        assertThat(bucketOf(key, approved)).isEqualTo(new Tally(90, 1));
    }

    private final TestKeys ownKeys = new TestKeys();

    @AfterEach
    void deleteTheRowsOfTheTestsKeys() {
        ownKeys.deleteTheirRows(db);
    }

    /** In a batch, a key's events are decided in event order: a release frees limit for what follows. */
    @Test
    void withinABatchAReversalFreesLimitForTheAuthorizationsAfterIt() {
        BusinessKey key = newKey();
        TransactionEvent first = authorization(key, 600);
        TransactionEvent tooMuch = authorization(key, 600);
        TransactionEvent cancelFirst = reversal(key, first, 600);
        TransactionEvent nowItFits = authorization(key, 600);

        List<Decision> decisions = decideAll(List.of(first, tooMuch, cancelFirst, nowItFits), ONE_THOUSAND_A_DAY);

        assertThat(decisions)
                .extracting(Decision::verdict)
                .containsExactly(Verdict.APPROVED, Verdict.REJECTED, Verdict.RELEASED, Verdict.APPROVED);
        assertThat(decisions.get(3).usage().of(Window.LAST_24_HOURS)).isEqualTo(new Tally(0, 0));
        assertThat(bucketOf(key, first)).isEqualTo(new Tally(600, 1));
        assertThat(summed.usageUpTo(key, decisions.get(0).bucketTs()).of(Window.LAST_24_HOURS))
                .isEqualTo(new Tally(600, 1));
    }

    @Test
    void aRedeliveredReversalIsAnsweredAgainAndReleasesNothingMore() {
        BusinessKey key = newKey();
        TransactionEvent authorization = authorization(key, 1_000);
        decide(authorization);
        TransactionEvent reversal = reversal(key, authorization, 400);
        Decision decided = decide(reversal);

        List<Decision> again = decideAll(List.of(reversal, reversal), Limits.NONE);

        assertThat(again).allSatisfy(replay -> {
            assertThat(replay.replayed()).isTrue();
            assertThat(replay.dedupeConflict()).isEmpty();
            assertThat(replay.released()).isEqualTo(decided.released());
            assertThat(replay.remaining()).isEqualTo(600);
            assertThat(replay.decidedAt()).isEqualTo(decided.decidedAt());
        });
        assertThat(bucketOf(key, authorization)).isEqualTo(new Tally(600, 1));
    }

    @Test
    void aReusedDedupeIdWithOtherContentIsAnsweredWithTheStoredDecisionAndCountsNothing() {
        BusinessKey key = newKey();
        TransactionEvent authorization = authorization(key, 1_000);
        Decision stored = decide(authorization);
        TransactionEvent otherAmount =
                new TransactionEvent(authorization.dedupeId(), key, 2_000, "USD", authorization.occurredAt());
        TransactionEvent nowAReversal = new TransactionEvent(
                authorization.dedupeId(),
                key,
                1_000,
                "USD",
                authorization.occurredAt(),
                EventType.REVERSAL,
                UUID.randomUUID());

        Decision conflict = decide(otherAmount);
        Decision typeConflict = decide(nowAReversal);

        assertThat(conflict.replayed()).isTrue();
        assertThat(conflict.dedupeConflict()).containsExactly("amount");
        assertThat(conflict.fields().amount()).isEqualTo(1_000);
        assertThat(conflict.decidedAt()).isEqualTo(stored.decidedAt());
        assertThat(typeConflict.dedupeConflict()).containsExactly("type", "reverses");
        assertThat(bucketOf(key, authorization)).isEqualTo(new Tally(1_000, 1));
    }

    /**
     * A release goes to the hour its original was counted in: three days back, it leaves the 24-hour
     * window as it was and shrinks the 7- and 30-day ones; the next decision's usage is right although
     * the key's window starts were remembered for this hour before the release.
     */
    @Test
    void aReleaseThreeDaysBackShrinksOnlyTheWindowsThatHoldThatHour() {
        BusinessKey key = newKey();
        TransactionEvent old = olderAuthorization(key, 1_000, 3 * 24);
        Decision before = decideAll(List.of(authorization(key, 100)), TestStores.FAR_LIMITS)
                .get(0);

        Decision release = decide(reversal(key, old, 1_000));
        Decision after = decideAll(List.of(authorization(key, 50)), TestStores.FAR_LIMITS)
                .get(0);

        assertThat(before.usage().of(Window.LAST_7_DAYS)).isEqualTo(new Tally(1_000, 1));
        assertThat(release.verdict()).isEqualTo(Verdict.RELEASED);
        assertThat(after.usage().of(Window.LAST_24_HOURS)).isEqualTo(new Tally(100, 1));
        assertThat(after.usage().of(Window.LAST_7_DAYS)).isEqualTo(new Tally(100, 1));
        assertThat(after.usage().of(Window.LAST_30_DAYS)).isEqualTo(new Tally(100, 1));
    }

    /**
     * Another worker remembers the key's window starts, then a release three days back lowers the totals
     * before its windows: the worker's next decision must see the release, not the starts it remembered.
     */
    @Test
    void anotherWorkersRememberedWindowStartsDoNotHideARelease() {
        BusinessKey key = newKey();
        TransactionEvent old = olderAuthorization(key, 1_000, 3 * 24);
        BatchDecisionStore otherWorker = TestStores.batchDecisionStore(dataSource);
        // the second decision finds this hour's bucket, so the worker remembers the key's window starts
        otherWorker.decideAll(List.of(authorization(key, 100)), anyKey -> TestStores.FAR_LIMITS);
        otherWorker.decideAll(List.of(authorization(key, 10)), anyKey -> TestStores.FAR_LIMITS);

        decide(reversal(key, old, 1_000));
        Decision after = otherWorker
                .decideAll(List.of(authorization(key, 50)), anyKey -> TestStores.FAR_LIMITS)
                .get(0);

        // the release lowered the totals before the 24-hour window's first bucket, this hour's
        assertThat(after.usage().of(Window.LAST_24_HOURS)).isEqualTo(new Tally(110, 2));
        assertThat(after.usage().of(Window.LAST_7_DAYS))
                .as("the 7-day usage without the released 1,000")
                .isEqualTo(new Tally(110, 2));
    }

    /**
     * A worker remembers the key's window starts while a limit checks its usage; a release three days back
     * is decided while none does (the key's latest bucket alone read, its starts neither used nor
     * forgotten); once a limit checks it again, the worker's decision sees the release. The release is
     * smaller than the key's usage in the last 24 hours, so a stale start gives a usage too small, not
     * one below zero, which would be read again anyway.
     */
    @Test
    void windowStartsRememberedBeforeADecisionThatLeftTheUsageUnreadSeeTheReleaseItMade() {
        BusinessKey key = newKey();
        TransactionEvent old = olderAuthorization(key, 30, 3 * 24);
        // the second decision finds this hour's bucket, so the store remembers the key's window starts
        decideAll(List.of(authorization(key, 100)), TestStores.FAR_LIMITS);
        decideAll(List.of(authorization(key, 10)), TestStores.FAR_LIMITS);

        Decision release =
                decideAll(List.of(reversal(key, old, 30)), Limits.NONE).get(0);
        Decision after = decideAll(List.of(authorization(key, 50)), TestStores.FAR_LIMITS)
                .get(0);

        assertThat(release.verdict()).isEqualTo(Verdict.RELEASED);
        assertThat(after.usage().of(Window.LAST_24_HOURS)).isEqualTo(new Tally(110, 2));
        assertThat(after.usage().of(Window.LAST_7_DAYS))
                .as("the 7-day usage without the released 30")
                .isEqualTo(new Tally(110, 2));
    }

    /**
     * Reversals of one original decided at the same moment by several workers never give back more than
     * the original's amount in total: the key's lock serialises them, and each sees what the others
     * released.
     */
    @Test
    void concurrentReversalsOfOneOriginalNeverReleaseMoreThanItsAmount() throws Exception {
        BusinessKey key = newKey();
        TransactionEvent original = authorization(key, 1_000);
        decide(original);
        int workers = 8;
        CyclicBarrier start = new CyclicBarrier(workers);
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        List<Future<Decision>> decided = new ArrayList<>();
        try {
            for (int i = 0; i < workers; i++) {
                BatchDecisionStore worker = TestStores.batchDecisionStore(dataSource);
                TransactionEvent reversal = reversal(key, original, 300);
                decided.add(pool.submit(() -> {
                    start.await();
                    return worker.decideAll(List.of(reversal), anyKey -> Limits.NONE)
                            .get(0);
                }));
            }
            long released = 0;
            int releases = 0;
            for (Future<Decision> decision : decided) {
                if (decision.get().verdict() == Verdict.RELEASED) {
                    released += decision.get().released().amount();
                    releases++;
                }
            }

            assertThat(released).isEqualTo(900);
            assertThat(releases).isEqualTo(3);
            assertThat(bucketOf(key, original)).isEqualTo(new Tally(100, 1));
        } finally {
            pool.shutdownNow();
        }
    }

    private Decision decide(TransactionEvent event) {
        return decideAll(List.of(event), Limits.NONE).get(0);
    }

    private List<Decision> decideAll(List<TransactionEvent> events, Limits limits) {
        return store.decideAll(events, anyKey -> limits);
    }

    /** An approved authorization filed hoursAgo, with its bucket, as the decider would have left it then. */
    private TransactionEvent olderAuthorization(BusinessKey key, long amount, int hoursAgo) {
        TransactionEvent event = authorization(key, amount);
        LocalDateTime bucket = LocalDateTime.ofInstant(
                Instant.now().truncatedTo(ChronoUnit.HOURS).minus(hoursAgo, ChronoUnit.HOURS), ZoneOffset.UTC);
        BucketRows.add(db, key, bucket, amount);
        db.update(
                """
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, occurred_at, decided_at, type)
                VALUES (?, ?, ?, ?, ?, 'APPROVED', ?, 'USD', now(), now(), 'AUTHORIZATION')
                """,
                key.entityId(),
                key.channel(),
                key.direction().name(),
                event.dedupeId(),
                Timestamp.valueOf(bucket),
                amount);
        return event;
    }

    /** The bucket an authorization was counted in, as it stands. */
    private Tally bucketOf(BusinessKey key, TransactionEvent authorization) {
        return db.queryForObject(
                """
                SELECT bucket.sum_amount, bucket.tx_count
                FROM risk_request_log original
                JOIN risk_hourly_agg bucket USING (entity_id, channel_code, direction_code, bucket_ts)
                WHERE original.entity_id = ? AND original.channel_code = ? AND original.direction_code = ?
                  AND original.dedupe_id = ?
                """,
                (rs, row) -> new Tally(rs.getLong(1), rs.getLong(2)),
                key.entityId(),
                key.channel(),
                key.direction().name(),
                authorization.dedupeId());
    }

    private BusinessKey newKey() {
        return ownKeys.newKey();
    }

    private static TransactionEvent authorization(BusinessKey key, long amount) {
        return new TransactionEvent(
                UUID.randomUUID(), key, amount, "USD", Instant.now().truncatedTo(ChronoUnit.MICROS));
    }

    private static TransactionEvent reversal(BusinessKey key, TransactionEvent original, long amount) {
        return new TransactionEvent(
                UUID.randomUUID(),
                key,
                amount,
                "USD",
                Instant.now().truncatedTo(ChronoUnit.MICROS),
                EventType.REVERSAL,
                original.dedupeId());
    }
}
