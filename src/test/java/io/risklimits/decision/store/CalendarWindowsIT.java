package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Tally;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Window;
import io.risklimits.decision.WindowCalendar;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.TestInfrastructure;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * The calendar windows (day, week from Monday, month) in a zone with daylight saving: the usage the
 * running totals give, read in full every time or with the window starts remembered for the hour, must
 * be the plain sum of each window's buckets ({@link SummedUsage} with the same calendar), hour by hour
 * through a 25-hour day, a 23-hour day and the starts of months, while buckets are added at the current
 * hour as a decider adds them.
 */
@ExtendWith(NoRowsLeftBehind.class)
class CalendarWindowsIT {

    private static final WindowCalendar NEW_YORK = new WindowCalendar(ZoneId.of("America/New_York"));
    private static final Duration ONE_HOUR = Duration.ofHours(1);
    private static final Duration HISTORY = Duration.ofDays(35);
    private static final List<Window> CALENDAR_WINDOWS = List.of(Window.DAY, Window.WEEK, Window.MONTH);

    /** Which hours a key has buckets in: the histories the windows are checked against. */
    private enum History {
        EVERY_HOUR,
        NOW_AND_THEN,
        // at each calendar window's first hour and the hour before it
        AT_WINDOW_STARTS,
        // the hours on either side of each calendar window's first hour, never that hour itself
        BESIDE_WINDOW_STARTS
    }

    private record HistoryKey(BusinessKey key, History history) {}

    // one connection for the thousands of statements of a test: the shared DataSource opens one per statement
    private final SingleConnectionDataSource dataSource = oneConnection();
    private final JdbcTemplate db = new JdbcTemplate(dataSource);
    private final SummedUsage summed = new SummedUsage(dataSource, NEW_YORK);
    private final SimpleMeterRegistry rememberingMeters = new SimpleMeterRegistry();
    private final RunningUsageRepository reading = new RunningUsageRepository(
            db, NEW_YORK, new WindowStartsCache(0), new DecisionStoreMetrics(new SimpleMeterRegistry()));
    private final RunningUsageRepository remembering = new RunningUsageRepository(
            db, NEW_YORK, new WindowStartsCache(1_000), new DecisionStoreMetrics(rememberingMeters));
    private final Random random = new Random(34);
    private final TestKeys ownKeys = new TestKeys();

    @AfterEach
    void deleteTheBuckets() {
        try {
            ownKeys.deleteTheirRows(db);
        } finally {
            dataSource.destroy();
        }
    }

    private static SingleConnectionDataSource oneConnection() {
        TestInfrastructure infrastructure = TestInfrastructure.get();
        return new SingleConnectionDataSource(
                infrastructure.jdbcUrl(), infrastructure.username(), infrastructure.password(), true);
    }

    /** Monday 26 October 2026 00:00 EDT to just after Monday 2 November 00:00 EST; Sunday has 25 hours. */
    @Test
    void theWeekOfTheAutumnChange() {
        stepHourByHour(Instant.parse("2026-10-26T01:00:00Z"), Instant.parse("2026-11-02T09:00:00Z"));
    }

    /** Sunday 8 March 2026 has 23 hours: 00:00 EST is 05:00 UTC, Monday 00:00 EDT is 04:00 UTC. */
    @Test
    void theDayOfTheSpringChange() {
        stepHourByHour(Instant.parse("2026-03-07T20:00:00Z"), Instant.parse("2026-03-09T09:00:00Z"));
    }

    /** April begins at 04:00 UTC (EDT), December at 05:00 UTC (EST); November is in the autumn week. */
    @Test
    void theStartsOfMonthsInSummerAndWinterTime() {
        stepHourByHour(Instant.parse("2026-03-31T20:00:00Z"), Instant.parse("2026-04-01T09:00:00Z"));
        stepHourByHour(Instant.parse("2026-11-30T20:00:00Z"), Instant.parse("2026-12-01T09:00:00Z"));
    }

    /**
     * Numbers worked out by hand, so that the comparison above cannot pass with both sides equally
     * wrong. Each amount is a decimal digit of its own, so a sum names the buckets in it.
     */
    @Test
    void theAutumnWeekAndItsTwentyFiveHourSundayByHand() {
        BusinessKey key = newKey();
        add(key, "2026-10-26T03:00:00Z", 1); // Sunday 25 October 23:00 EDT: the week before
        add(key, "2026-10-26T04:00:00Z", 10); // Monday 26 October 00:00 EDT: the week's first hour
        add(key, "2026-11-01T03:00:00Z", 100); // Saturday 31 October 23:00 EDT: October
        add(key, "2026-11-01T04:00:00Z", 1_000); // Sunday 1 November 00:00 EDT: the day's and month's first hour
        add(key, "2026-11-02T04:00:00Z", 10_000); // Sunday 1 November 23:00 EST: the day's 25th hour

        Usage lastHourOfSunday = usage(key, "2026-11-02T04:00:00Z");
        assertThat(lastHourOfSunday.of(Window.DAY)).isEqualTo(new Tally(11_000, 2));
        assertThat(lastHourOfSunday.of(Window.LAST_24_HOURS))
                .as("the 24 hours miss the day's first hour")
                .isEqualTo(new Tally(10_000, 1));
        assertThat(lastHourOfSunday.of(Window.WEEK))
                .as("the week holds Monday 04:00 UTC, not 03:00")
                .isEqualTo(new Tally(11_110, 4));
        assertThat(lastHourOfSunday.of(Window.MONTH)).isEqualTo(new Tally(11_000, 2));

        add(key, "2026-11-02T05:00:00Z", 100_000); // Monday 2 November 00:00 EST
        Usage mondayMidnight = usage(key, "2026-11-02T05:00:00Z");
        assertThat(mondayMidnight.of(Window.DAY)).isEqualTo(new Tally(100_000, 1));
        assertThat(mondayMidnight.of(Window.WEEK)).isEqualTo(new Tally(100_000, 1));
        assertThat(mondayMidnight.of(Window.MONTH)).isEqualTo(new Tally(111_000, 3));
        assertThat(mondayMidnight.of(Window.LAST_24_HOURS)).isEqualTo(new Tally(110_000, 2));
    }

    @Test
    void theSpringDayOfTwentyThreeHoursByHand() {
        BusinessKey key = newKey();
        add(key, "2026-03-01T04:00:00Z", 1); // Saturday 28 February 23:00 EST: February
        add(key, "2026-03-01T05:00:00Z", 10); // Sunday 1 March 00:00 EST: March's first hour
        add(key, "2026-03-08T04:00:00Z", 100); // Saturday 7 March 23:00 EST
        add(key, "2026-03-08T05:00:00Z", 1_000); // Sunday 8 March 00:00 EST: the day's first hour
        add(key, "2026-03-09T03:00:00Z", 10_000); // Sunday 8 March 23:00 EDT: the day's 23rd and last hour

        Usage lastHourOfSunday = usage(key, "2026-03-09T03:00:00Z");
        assertThat(lastHourOfSunday.of(Window.DAY))
                .as("the day holds 05:00 UTC, not 04:00")
                .isEqualTo(new Tally(11_000, 2));
        assertThat(lastHourOfSunday.of(Window.LAST_24_HOURS))
                .as("the 24 hours reach back into Saturday")
                .isEqualTo(new Tally(11_100, 3));
        assertThat(lastHourOfSunday.of(Window.WEEK))
                .as("the week since Monday 2 March 05:00 UTC")
                .isEqualTo(new Tally(11_100, 3));
        assertThat(lastHourOfSunday.of(Window.MONTH)).isEqualTo(new Tally(11_110, 4));

        add(key, "2026-03-09T04:00:00Z", 100_000); // Monday 9 March 00:00 EDT
        Usage mondayMidnight = usage(key, "2026-03-09T04:00:00Z");
        assertThat(mondayMidnight.of(Window.DAY)).isEqualTo(new Tally(100_000, 1));
        assertThat(mondayMidnight.of(Window.WEEK)).isEqualTo(new Tally(100_000, 1));
        assertThat(mondayMidnight.of(Window.MONTH)).isEqualTo(new Tally(111_110, 5));
    }

    @Test
    void decemberBeginsAtFiveUtcByHand() {
        BusinessKey key = newKey();
        add(key, "2026-11-01T03:00:00Z", 1_000); // Saturday 31 October 23:00 EDT: October
        add(key, "2026-11-01T04:00:00Z", 100); // Sunday 1 November 00:00 EDT: November's first hour
        add(key, "2026-12-01T04:00:00Z", 1); // Monday 30 November 23:00 EST: November's last hour

        assertThat(usage(key, "2026-12-01T04:00:00Z").of(Window.MONTH)).isEqualTo(new Tally(101, 2));

        add(key, "2026-12-01T05:00:00Z", 10); // Tuesday 1 December 00:00 EST
        Usage firstOfDecember = usage(key, "2026-12-01T05:00:00Z");
        assertThat(firstOfDecember.of(Window.MONTH)).isEqualTo(new Tally(10, 1));
        assertThat(firstOfDecember.of(Window.DAY)).isEqualTo(new Tally(10, 1));
        assertThat(firstOfDecember.of(Window.WEEK))
                .as("the week since Monday 30 November 05:00 UTC")
                .isEqualTo(new Tally(11, 2));
    }

    /**
     * Keys of every history, their buckets over the 35 days before {@code from}, then hour by hour to
     * {@code to}: usage compared before the hour's first bucket and after each addition to it (the
     * reads after the first in an hour use the remembered window starts).
     */
    private void stepHourByHour(Instant from, Instant to) {
        Set<Instant> calendarStarts = calendarStartsBetween(from, to);
        List<HistoryKey> keys = new ArrayList<>();
        for (History history : History.values()) {
            keys.add(new HistoryKey(newKey(), history));
            keys.add(new HistoryKey(newKey(), history));
        }
        for (Instant hour = from.minus(HISTORY); hour.isBefore(from); hour = hour.plus(ONE_HOUR)) {
            for (HistoryKey key : keys) {
                if (hasBucketAt(key.history(), hour, calendarStarts)) {
                    add(key.key(), hour, 1 + random.nextInt(1_000));
                }
            }
        }
        double rememberedBefore = rememberedKeys();

        for (Instant hour = from; !hour.isAfter(to); hour = hour.plus(ONE_HOUR)) {
            assertSameUsage(keys, hour, "before the hour's buckets");
            for (HistoryKey key : keys) {
                if (hasBucketAt(key.history(), hour, calendarStarts)) {
                    add(key.key(), hour, 1 + random.nextInt(1_000));
                }
            }
            assertSameUsage(keys, hour, "after the hour's first buckets");
            for (HistoryKey key : keys) {
                if (key.history() == History.EVERY_HOUR || random.nextInt(4) == 0) {
                    add(key.key(), hour, 1 + random.nextInt(1_000));
                }
            }
            assertSameUsage(keys, hour, "after more in the hour's buckets");
        }

        assertThat(rememberedKeys() - rememberedBefore)
                .as("reads that used remembered window starts")
                .isGreaterThan(0);
    }

    private void assertSameUsage(List<HistoryKey> keys, Instant hour, String when) {
        List<ScopeKey> businessKeys =
                keys.stream().map(HistoryKey::key).map(ScopeKey::of).toList();
        Map<ScopeKey, Usage> read = reading.usageUpTo(businessKeys, hour).usage();
        Map<ScopeKey, Usage> remembered =
                remembering.usageUpTo(businessKeys, hour).usage();
        LocalDateTime inNewYork = LocalDateTime.ofInstant(hour, NEW_YORK.zone());
        for (HistoryKey key : keys) {
            Usage expected = summed.usageUpTo(key.key(), hour);
            assertThat(read.get(ScopeKey.of(key.key())))
                    .as("read in full at %s (%s in New York) %s, history %s", hour, inNewYork, when, key.history())
                    .isEqualTo(expected);
            assertThat(remembered.get(ScopeKey.of(key.key())))
                    .as("remembering at %s (%s in New York) %s, history %s", hour, inNewYork, when, key.history())
                    .isEqualTo(expected);
        }
    }

    private boolean hasBucketAt(History history, Instant hour, Set<Instant> calendarStarts) {
        return switch (history) {
            case EVERY_HOUR -> true;
            case NOW_AND_THEN -> random.nextInt(8) == 0;
            case AT_WINDOW_STARTS -> calendarStarts.contains(hour) || calendarStarts.contains(hour.plus(ONE_HOUR));
            case BESIDE_WINDOW_STARTS ->
                !calendarStarts.contains(hour)
                        && (calendarStarts.contains(hour.minus(ONE_HOUR))
                                || calendarStarts.contains(hour.plus(ONE_HOUR)));
        };
    }

    /** The first hour of every day, week and month that a window ending between from and to starts with. */
    private static Set<Instant> calendarStartsBetween(Instant from, Instant to) {
        Set<Instant> starts = new HashSet<>();
        for (Instant hour = from; !hour.isAfter(to); hour = hour.plus(ONE_HOUR)) {
            for (Window window : CALENDAR_WINDOWS) {
                starts.add(NEW_YORK.startFor(window, hour));
            }
        }
        return starts;
    }

    /** The usage both repositories give, after checking they agree with each other and with the sums. */
    private Usage usage(BusinessKey key, String hour) {
        Instant bucket = Instant.parse(hour);
        Usage expected = summed.usageUpTo(key, bucket);
        ScopeKey scopeKey = ScopeKey.of(key);
        assertThat(reading.usageUpTo(List.of(scopeKey), bucket).usage().get(scopeKey))
                .isEqualTo(expected);
        assertThat(remembering.usageUpTo(List.of(scopeKey), bucket).usage().get(scopeKey))
                .isEqualTo(expected);
        return remembering.usageUpTo(List.of(scopeKey), bucket).usage().get(scopeKey);
    }

    private double rememberedKeys() {
        return rememberingMeters
                .get("risk.decider.window.starts")
                .tag("source", "remembered")
                .counter()
                .count();
    }

    private BusinessKey newKey() {
        return ownKeys.newKey();
    }

    private void add(BusinessKey key, String hour, long amount) {
        add(key, Instant.parse(hour), amount);
    }

    private void add(BusinessKey key, Instant hour, long amount) {
        BucketRows.add(db, key, LocalDateTime.ofInstant(hour, ZoneOffset.UTC), amount);
    }
}
