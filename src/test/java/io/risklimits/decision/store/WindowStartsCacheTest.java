package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.risklimits.decider.DeciderProperties;
import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Tally;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Window;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class WindowStartsCacheTest {

    private static final Instant TEN_O_CLOCK = Instant.parse("2026-11-23T10:00:00Z");
    private static final Instant ELEVEN_O_CLOCK = Instant.parse("2026-11-23T11:00:00Z");

    private final ScopeKey key = key();
    private final WindowStarts starts = starts(100, 2);

    @Test
    void aKeysStartsAreFoundForTheHourTheyWereReadIn() {
        WindowStartsCache cache = new WindowStartsCache(10);

        cache.remember(Map.of(key, starts), TEN_O_CLOCK);

        assertThat(cache.find(key, TEN_O_CLOCK)).isEqualTo(starts);
        assertThat(cache.find(key(), TEN_O_CLOCK)).isNull();
    }

    @Test
    void theStartsOfOneHourAreNotUsedInAnother() {
        WindowStartsCache cache = new WindowStartsCache(10);
        cache.remember(Map.of(key, starts), TEN_O_CLOCK);

        assertThat(cache.find(key, ELEVEN_O_CLOCK)).isNull();
        assertThat(cache.find(key, TEN_O_CLOCK.minusSeconds(3600))).isNull();
    }

    @Test
    void aNewHourDropsTheEntriesOfTheHourBefore() {
        WindowStartsCache cache = new WindowStartsCache(10);
        cache.remember(Map.of(key, starts), TEN_O_CLOCK);
        ScopeKey other = key();

        cache.remember(Map.of(other, starts(5, 1)), ELEVEN_O_CLOCK);

        assertThat(cache.find(other, ELEVEN_O_CLOCK)).isEqualTo(starts(5, 1));
        assertThat(cache.find(key, TEN_O_CLOCK)).isNull();
    }

    @Test
    void noMoreKeysThanTheLimitAreKept() {
        WindowStartsCache cache = new WindowStartsCache(2);
        Map<ScopeKey, WindowStarts> read = new LinkedHashMap<>();
        for (int i = 0; i < 5; i++) {
            read.put(key(), starts(i, i));
        }

        cache.remember(read, TEN_O_CLOCK);

        assertThat(read.keySet().stream().filter(k -> cache.find(k, TEN_O_CLOCK) != null))
                .hasSize(2);
    }

    @Test
    void aLimitOfZeroKeepsNothing() {
        WindowStartsCache cache = new WindowStartsCache(0);

        cache.remember(Map.of(key, starts), TEN_O_CLOCK);

        assertThat(cache.find(key, TEN_O_CLOCK)).isNull();
    }

    @Test
    void aNegativeNumberOfKeysIsRefusedAtStartup() {
        assertThatThrownBy(() -> new DeciderProperties("risk-decider", 2, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("risk.decider.window-starts-cache-keys");
    }

    @Test
    void usageIsTheLatestRunningTotalsMinusThoseBeforeEachWindow() {
        WindowStarts before = new WindowStarts(Map.of(
                Window.LAST_24_HOURS, new WindowStarts.Before(BigDecimal.valueOf(900), 9),
                Window.LAST_7_DAYS, new WindowStarts.Before(BigDecimal.valueOf(400), 4),
                Window.LAST_30_DAYS, new WindowStarts.Before(BigDecimal.ZERO, 0),
                Window.DAY, new WindowStarts.Before(BigDecimal.valueOf(950), 9),
                Window.WEEK, new WindowStarts.Before(BigDecimal.valueOf(500), 5),
                Window.MONTH, new WindowStarts.Before(BigDecimal.valueOf(100), 1)));

        Usage usage = before.usageUpTo(new LatestBucket(TEN_O_CLOCK, BigDecimal.valueOf(1000), 10, null))
                .orElseThrow();

        assertThat(usage.of(Window.LAST_24_HOURS)).isEqualTo(new Tally(100, 1));
        assertThat(usage.of(Window.LAST_7_DAYS)).isEqualTo(new Tally(600, 6));
        assertThat(usage.of(Window.LAST_30_DAYS)).isEqualTo(new Tally(1000, 10));
        assertThat(usage.of(Window.DAY)).isEqualTo(new Tally(50, 1));
        assertThat(usage.of(Window.MONTH)).isEqualTo(new Tally(900, 9));
        assertThat(starts(0, 0).usageUpTo(null)).contains(Usage.NONE);
    }

    /** The running totals are numeric: a window's sum past the long range is capped at its largest value. */
    @Test
    void usagePastTheLongRangeIsTheLargestLong() {
        BigDecimal twentySevenQuintillion = new BigDecimal("27000000000000000000");

        Usage usage = starts(0, 0)
                .usageUpTo(new LatestBucket(TEN_O_CLOCK, twentySevenQuintillion, 3, null))
                .orElseThrow();

        assertThat(usage.of(Window.LAST_24_HOURS)).isEqualTo(new Tally(Long.MAX_VALUE, 3));
        assertThat(starts(1, 0)
                        .usageUpTo(new LatestBucket(
                                TEN_O_CLOCK, BigDecimal.valueOf(Long.MAX_VALUE).add(BigDecimal.ONE), 3, null))
                        .orElseThrow()
                        .of(Window.MONTH))
                .as("exactly the largest long")
                .isEqualTo(new Tally(Long.MAX_VALUE, 3));
    }

    /**
     * Starts above the latest bucket's totals in some window are not the starts of those totals (remembered
     * before a write that changed what a window starts from): they give no usage rather than one below zero.
     */
    @Test
    void startsAboveTheLatestTotalsGiveNoUsage() {
        LatestBucket latest = new LatestBucket(TEN_O_CLOCK, BigDecimal.valueOf(600), 1, null);

        assertThat(starts(1_000, 1).usageUpTo(latest)).isEmpty();
        assertThat(starts(600, 2).usageUpTo(latest)).isEmpty();
        assertThat(starts(600, 1).usageUpTo(latest)).contains(Usage.NONE);
    }

    private static WindowStarts starts(long amount, long count) {
        WindowStarts.Before before = new WindowStarts.Before(BigDecimal.valueOf(amount), count);
        Map<Window, WindowStarts.Before> byWindow = new java.util.EnumMap<>(Window.class);
        for (Window window : Window.values()) {
            if (window.countsUsage()) {
                byWindow.put(window, before);
            }
        }
        return new WindowStarts(byWindow);
    }

    private static ScopeKey key() {
        return ScopeKey.of(new BusinessKey(UUID.randomUUID(), "CARD", Direction.OUT));
    }
}
