package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.DecisionJson;
import io.risklimits.decision.EventType;
import io.risklimits.decision.Limit;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Tally;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.Window;
import io.risklimits.support.DecisionSchema;
import io.risklimits.support.NoRowsLeftBehind;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A reversal that is a key's first event in a new day, week or month releases into the key's latest
 * bucket, from before the calendar window began. The batch that decides it remembers the key's window
 * starts for the hour, and a calendar window with no bucket of the key yet starts from that latest
 * bucket's running totals, which the release lowers: the next authorization of the hour must see the
 * window as the release left it (empty), not the remembered totals less the release (below zero).
 * So must a write through the running-totals triggers (an operator's correction of the latest bucket,
 * a bulk load's new latest bucket) that changes what such a window starts from.
 * The database clock is set, so each step happens at its hour whenever the test runs.
 */
@ExtendWith(NoRowsLeftBehind.class)
class ReleaseIntoTheLatestBucketIT {

    private static final Duration FIVE_MINUTES = Duration.ofMinutes(5);

    /** The seeded defaults of risk_limit: the rolling windows only. */
    private static final Map<Window, Limit> SEEDED = Map.of(
            Window.LAST_24_HOURS, new Limit(1_000_000L, 100L),
            Window.LAST_7_DAYS, new Limit(5_000_000L, 500L),
            Window.LAST_30_DAYS, new Limit(20_000_000L, 2_000L));

    /** The calendar window that begins between the authorization and its reversal. */
    private enum NewWindow {
        // Tuesday 5 March 2030, then Wednesday
        DAY(Window.DAY, "2030-03-05T15:20:00Z", "2030-03-06T09:05:00Z"),
        // Sunday 10 March 2030, then Monday: a new day too
        WEEK(Window.WEEK, "2030-03-10T15:20:00Z", "2030-03-11T09:05:00Z"),
        // Tuesday 30 April 2030, then Wednesday 1 May: a new day too
        MONTH(Window.MONTH, "2030-04-30T15:20:00Z", "2030-05-01T09:05:00Z");

        final Window window;
        final Instant authorizedAt;
        final Instant reversedAt;

        NewWindow(Window window, String authorizedAt, String reversedAt) {
            this.window = window;
            this.authorizedAt = Instant.parse(authorizedAt);
            this.reversedAt = Instant.parse(reversedAt);
        }
    }

    private final SetDatabaseClock databaseClock = new SetDatabaseClock(Instant.parse("2030-01-01T00:00:00Z"));
    private final JdbcTemplate db = new JdbcTemplate(databaseClock.dataSource());
    private final SummedUsage summed = new SummedUsage(databaseClock.dataSource());
    private final BatchDecisionStore store =
            TestStores.batchDecisionStore(databaseClock.dataSource(), databaseClock.clock());
    private final TestKeys ownKeys = databaseClock.keys();

    @AfterEach
    void deleteTheKeysRowsAndTheClock() {
        databaseClock.close();
    }

    static Stream<Arguments> newWindowsWithAndWithoutACalendarLimit() {
        return Stream.of(NewWindow.values())
                .flatMap(newWindow -> Stream.of(Arguments.of(newWindow, false), Arguments.of(newWindow, true)));
    }

    /**
     * Authorization A of 1,000 approved; the key's first event of the new window a reversal of 400 of A;
     * then authorizations B of 1,000 and C of 400 in the same hour. B finds the new window empty, and
     * C finds B in it: with a limit of 1,000 on the new window C is rejected for it, without one it
     * is approved.
     */
    @ParameterizedTest(name = "a new {0}, a limit on it: {1}")
    @MethodSource("newWindowsWithAndWithoutACalendarLimit")
    void theNextAuthorizationsSeeTheNewWindowAsTheReleaseLeftIt(NewWindow newWindow, boolean calendarLimit) {
        Limits limits = limits(newWindow, calendarLimit);
        BusinessKey key = newKey();

        approveAThousandThenRelease400(key, newWindow, limits);

        databaseClock.set(newWindow.reversedAt.plus(FIVE_MINUTES));
        Instant hour = newWindow.reversedAt.truncatedTo(ChronoUnit.HOURS);
        Usage exact = summed.usageUpTo(key, hour);
        Decision b = decide(authorization(key, 1_000), limits);

        assertThat(b.usage().byWindow())
                .as("B's usage, from the window starts remembered by the reversal's batch")
                .isEqualTo(exact.byWindow());
        assertThat(b.usage().of(newWindow.window)).isEqualTo(Tally.ZERO);
        assertThat(b.usage().of(Window.LAST_24_HOURS)).isEqualTo(new Tally(600, 1));
        assertThat(b.verdict()).as("B, reason %s", b.reason()).isEqualTo(Verdict.APPROVED);
        DecisionSchema.assertValidDecision(DecisionJson.message(b));

        databaseClock.set(newWindow.reversedAt.plus(FIVE_MINUTES.multipliedBy(2)));
        Usage exactWithB = summed.usageUpTo(key, hour);
        Decision c = decide(authorization(key, 400), limits);

        assertThat(c.usage().byWindow()).isEqualTo(exactWithB.byWindow());
        assertThat(c.usage().of(newWindow.window)).isEqualTo(new Tally(1_000, 1));
        assertRejectedOnlyByTheNewWindowsLimit(c, newWindow, calendarLimit);
        DecisionSchema.assertValidDecision(DecisionJson.message(c));
    }

    /**
     * The same release, then B decided by another worker, which adds to the new window: the worker that
     * remembered the window starts with the reversal must see B and the release when it decides C, not
     * B less the released amount (a usage that is wrong without being below zero).
     */
    @ParameterizedTest(name = "a new {0}, a limit on it: {1}")
    @MethodSource("newWindowsWithAndWithoutACalendarLimit")
    void theWorkerThatRememberedTheStartsSeesTheReleaseAfterAnotherWorkersAuthorization(
            NewWindow newWindow, boolean calendarLimit) {
        Limits limits = limits(newWindow, calendarLimit);
        BusinessKey key = newKey();
        BatchDecisionStore otherWorker =
                TestStores.batchDecisionStore(databaseClock.dataSource(), databaseClock.clock());

        approveAThousandThenRelease400(key, newWindow, limits);
        databaseClock.set(newWindow.reversedAt.plus(FIVE_MINUTES));
        Decision b = otherWorker
                .decideAll(List.of(authorization(key, 1_000)), anyKey -> limits)
                .get(0);
        assertThat(b.verdict()).as("B, reason %s", b.reason()).isEqualTo(Verdict.APPROVED);

        databaseClock.set(newWindow.reversedAt.plus(FIVE_MINUTES.multipliedBy(2)));
        Usage exactWithB = summed.usageUpTo(key, newWindow.reversedAt.truncatedTo(ChronoUnit.HOURS));
        Decision c = decide(authorization(key, 400), limits);

        assertThat(c.usage().byWindow())
                .as("C's usage, from the window starts remembered by the reversal's batch")
                .isEqualTo(exactWithB.byWindow());
        assertThat(c.usage().of(newWindow.window)).isEqualTo(new Tally(1_000, 1));
        assertRejectedOnlyByTheNewWindowsLimit(c, newWindow, calendarLimit);
    }

    /** Authorization A of 1,000 approved; then, the key's first event of the new window, a reversal of 400 of A. */
    private void approveAThousandThenRelease400(BusinessKey key, NewWindow newWindow, Limits limits) {
        databaseClock.set(newWindow.authorizedAt);
        TransactionEvent authorization = authorization(key, 1_000);
        assertThat(decide(authorization, limits).verdict()).isEqualTo(Verdict.APPROVED);
        databaseClock.set(newWindow.reversedAt);
        assertThat(decide(reversal(key, authorization, 400), limits).verdict()).isEqualTo(Verdict.RELEASED);
    }

    /** C, with 1,000 in the new window before it: rejected for the window's limit where it has one. */
    private static void assertRejectedOnlyByTheNewWindowsLimit(Decision c, NewWindow newWindow, boolean calendarLimit) {
        if (calendarLimit) {
            assertThat(c.verdict()).isEqualTo(Verdict.REJECTED);
            assertThat(c.reason()).isEqualTo(newWindow.window.amountExceeded());
        } else {
            assertThat(c.verdict()).as("C, reason %s", c.reason()).isEqualTo(Verdict.APPROVED);
        }
    }

    /**
     * What an operator or a bulk load writes through the triggers into a key whose latest bucket is
     * yesterday's, at 12:00, of 1,000: it changes the totals the day window (which holds no bucket of
     * the key yet) starts from.
     */
    private enum TriggerWrite {
        RAISE_THE_LATEST_BUCKET("""
                UPDATE risk_hourly_agg SET sum_amount = 1500
                WHERE entity_id = ? AND channel_code = ? AND direction_code = ? AND bucket_ts = '2030-03-05 12:00'
                """),
        LOWER_THE_LATEST_BUCKET("""
                UPDATE risk_hourly_agg SET sum_amount = 600
                WHERE entity_id = ? AND channel_code = ? AND direction_code = ? AND bucket_ts = '2030-03-05 12:00'
                """),
        INSERT_A_NEW_LATEST_BUCKET("""
                INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
                VALUES (?, ?, ?, '2030-03-05 20:00', 500, 1)
                """);

        final String sql;

        TriggerWrite(String sql) {
            this.sql = sql;
        }
    }

    /** Tuesday 5 March 2030, then Wednesday. */
    private static final Instant YESTERDAY = Instant.parse("2030-03-05T12:20:00Z");

    private static final Instant TODAY = Instant.parse("2030-03-06T09:05:00Z");

    /** The seeded defaults and 1,000 a day. */
    private static final Limits WITH_A_DAY_LIMIT = limits(NewWindow.DAY, true);

    /**
     * Authorization A of 1,000 yesterday; today an authorization over the 24-hour limit is the key's
     * first event, rejected, and its batch remembers the key's window starts for the hour. Then a write
     * through the triggers changes the totals before the day window, and the next authorization of the
     * remembering worker must see the day window as a full read does: empty.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(TriggerWrite.class)
    void aWriteThroughTheTriggersIsSeenByTheNextAuthorization(TriggerWrite write) {
        BusinessKey key = keyRejectedTodayAfterAnAuthorizationYesterday();

        db.update(write.sql, key.entityId(), key.channel(), key.direction().name());

        databaseClock.set(TODAY.plus(FIVE_MINUTES));
        Usage exact = summed.usageUpTo(key, TODAY.truncatedTo(ChronoUnit.HOURS));
        Decision b = decide(authorization(key, 1_000), WITH_A_DAY_LIMIT);

        assertThat(b.usage().byWindow())
                .as("B's usage, from the window starts remembered by the rejection's batch")
                .isEqualTo(exact.byWindow());
        assertThat(b.usage().of(Window.DAY)).isEqualTo(Tally.ZERO);
        assertThat(b.verdict()).as("B, reason %s", b.reason()).isEqualTo(Verdict.APPROVED);
    }

    /**
     * The same write, then B of 1,000 decided by another worker, which starts the day window: the worker
     * that remembered the starts must find B alone in it when it decides C of 100 (not more, nor less,
     * which would let C past the day's limit of 1,000).
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(TriggerWrite.class)
    void aWriteThroughTheTriggersIsSeenAfterAnotherWorkersAuthorization(TriggerWrite write) {
        BusinessKey key = keyRejectedTodayAfterAnAuthorizationYesterday();
        db.update(write.sql, key.entityId(), key.channel(), key.direction().name());
        databaseClock.set(TODAY.plus(FIVE_MINUTES));
        Decision b = TestStores.batchDecisionStore(databaseClock.dataSource(), databaseClock.clock())
                .decideAll(List.of(authorization(key, 1_000)), anyKey -> WITH_A_DAY_LIMIT)
                .get(0);
        assertThat(b.verdict()).as("B, reason %s", b.reason()).isEqualTo(Verdict.APPROVED);

        databaseClock.set(TODAY.plus(FIVE_MINUTES.multipliedBy(2)));
        Usage exactWithB = summed.usageUpTo(key, TODAY.truncatedTo(ChronoUnit.HOURS));
        Decision c = decide(authorization(key, 100), WITH_A_DAY_LIMIT);

        assertThat(c.usage().byWindow())
                .as("C's usage, from the window starts remembered by the rejection's batch")
                .isEqualTo(exactWithB.byWindow());
        assertThat(c.usage().of(Window.DAY)).isEqualTo(new Tally(1_000, 1));
        assertThat(c.verdict()).isEqualTo(Verdict.REJECTED);
        assertThat(c.reason()).isEqualTo(Window.DAY.amountExceeded());
    }

    private BusinessKey keyRejectedTodayAfterAnAuthorizationYesterday() {
        BusinessKey key = newKey();
        databaseClock.set(YESTERDAY);
        assertThat(decide(authorization(key, 1_000), WITH_A_DAY_LIMIT).verdict())
                .isEqualTo(Verdict.APPROVED);
        databaseClock.set(TODAY);
        Decision rejected = decide(authorization(key, 2_000_000), WITH_A_DAY_LIMIT);
        assertThat(rejected.verdict()).isEqualTo(Verdict.REJECTED);
        return key;
    }

    private static Limits limits(NewWindow newWindow, boolean calendarLimit) {
        Map<Window, Limit> byWindow = new EnumMap<>(SEEDED);
        if (calendarLimit) {
            byWindow.put(newWindow.window, new Limit(1_000L, 100L));
        }
        return new Limits(byWindow);
    }

    private Decision decide(TransactionEvent event, Limits limits) {
        return store.decideAll(List.of(event), anyKey -> limits).get(0);
    }

    private BusinessKey newKey() {
        return ownKeys.newKey();
    }

    private TransactionEvent authorization(BusinessKey key, long amount) {
        return new TransactionEvent(
                UUID.randomUUID(), key, amount, "USD", databaseClock.clock().instant());
    }

    private TransactionEvent reversal(BusinessKey key, TransactionEvent original, long amount) {
        return new TransactionEvent(
                UUID.randomUUID(),
                key,
                amount,
                "USD",
                databaseClock.clock().instant(),
                EventType.REVERSAL,
                original.dedupeId());
    }
}
