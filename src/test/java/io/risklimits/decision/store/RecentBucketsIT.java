package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Window;
import io.risklimits.decision.WindowCalendar;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.TestInfrastructure;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Window starts read for a key seen for the first time: picked from its chunks of up to {@link
 * LatestBucket#CHUNK_BUCKETS} buckets (V13), from the one that holds its earliest window start on. A
 * window's usage must be the plain sum of its buckets ({@link SummedUsage}), with buckets on, just before
 * and long before every window's first hour, in one chunk or in many.
 */
@ExtendWith(NoRowsLeftBehind.class)
class RecentBucketsIT {

    // a Tuesday: the 24 h window starts 3 June 13:00, 7 d 28 May 13:00, 30 d 5 May 13:00, the day
    // 4 June 00:00, the week (Monday) 3 June 00:00, the month 1 June 00:00
    private static final Instant NOW = Instant.parse("2030-06-04T12:00:00Z");
    private static final Duration HOUR = Duration.ofHours(1);

    private final DataSource dataSource = TestInfrastructure.get().dataSource();
    private final JdbcTemplate db = new JdbcTemplate(dataSource);
    private final SummedUsage summed = new SummedUsage(dataSource);
    private final TestKeys ownKeys = new TestKeys();
    private final List<Instant> windowStarts = java.util.Arrays.stream(Window.values())
            .filter(Window::countsUsage)
            .map(window -> WindowCalendar.UTC.startFor(window, NOW))
            .toList();

    @AfterEach
    void deleteTheBuckets() {
        ownKeys.deleteTheirRows(db);
    }

    @Test
    void bucketsOnAndBesideEveryWindowStartAndOlderOnes() {
        BusinessKey key = ownKeys.newKey();
        List<Instant> hours = new ArrayList<>(List.of(NOW.minus(Duration.ofDays(40)), NOW.minus(Duration.ofDays(35))));
        for (Instant start : windowStarts) {
            hours.add(start.minus(HOUR));
            hours.add(start);
        }
        hours.add(NOW);
        addBuckets(key, hours);

        assertSameUsageAsSummed(key);
    }

    @Test
    void aKeyWhoseOnlyBucketsAreOlderThanEveryWindowHasNoUsage() {
        BusinessKey key = ownKeys.newKey();
        addBuckets(key, List.of(NOW.minus(Duration.ofDays(45)), NOW.minus(Duration.ofDays(33))));

        assertSameUsageAsSummed(key);
        assertThat(read(key).of(Window.LAST_30_DAYS).count()).isZero();
    }

    @Test
    void keysAroundAChunksSizeAgreeWithTheSums() {
        for (int recent : new int[] {
            0,
            LatestBucket.CHUNK_BUCKETS - 1,
            LatestBucket.CHUNK_BUCKETS,
            LatestBucket.CHUNK_BUCKETS + 1,
            2 * LatestBucket.CHUNK_BUCKETS,
            400
        }) {
            BusinessKey key = ownKeys.newKey();
            List<Instant> hours = new ArrayList<>(List.of(NOW.minus(Duration.ofDays(50))));
            // spread over the 30 days up to now, the latest at the current hour
            for (int i = 0; i < recent; i++) {
                hours.add(NOW.minus(HOUR.multipliedBy((long) i * (30 * 24 - 1) / Math.max(1, recent))));
            }
            addBuckets(key, hours);

            assertSameUsageAsSummed(key);
        }
    }

    @Test
    void aKeyWithoutBucketsHasNoUsage() {
        BusinessKey key = ownKeys.newKey();

        assertSameUsageAsSummed(key);
    }

    private void addBuckets(BusinessKey key, List<Instant> hours) {
        long amount = 1;
        for (Instant hour : hours.stream().distinct().sorted().toList()) {
            // each bucket a decimal digit of its own, so a wrong window names the buckets it took
            summed.addToBucket(key, hour, amount);
            amount = amount * 10 % 1_000_000_000_000L;
            if (amount == 0) {
                amount = 1;
            }
        }
    }

    private void assertSameUsageAsSummed(BusinessKey key) {
        Usage expected = summed.usageUpTo(key, NOW);
        Usage read = read(key);
        for (Window window : Window.values()) {
            if (window.countsUsage()) {
                assertThat(read.of(window)).as(window.label()).isEqualTo(expected.of(window));
            }
        }
    }

    // a reader that remembers nothing: every read is a first sight
    private Usage read(BusinessKey key) {
        RunningUsageRepository firstSights = new RunningUsageRepository(
                db, WindowCalendar.UTC, new WindowStartsCache(0), new DecisionStoreMetrics(new SimpleMeterRegistry()));
        Map<ScopeKey, Usage> usage =
                firstSights.usageUpTo(List.of(ScopeKey.of(key)), NOW).usage();
        return usage.get(ScopeKey.of(key));
    }
}
