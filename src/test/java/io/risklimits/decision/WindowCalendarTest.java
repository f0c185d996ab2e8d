package io.risklimits.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WindowCalendarTest {

    private static final WindowCalendar NEW_YORK = new WindowCalendar(ZoneId.of("America/New_York"));
    private static final Duration RETENTION = Duration.ofDays(32);
    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-26T12:00:00Z"), ZoneOffset.UTC);

    @Test
    void rollingWindowsEndWithTheCurrentHour() {
        Instant bucket = Instant.parse("2026-11-25T10:00:00Z");

        assertThat(NEW_YORK.startFor(Window.LAST_24_HOURS, bucket)).isEqualTo("2026-11-24T11:00:00Z");
        assertThat(NEW_YORK.startFor(Window.LAST_7_DAYS, bucket)).isEqualTo("2026-11-18T11:00:00Z");
        assertThat(NEW_YORK.startFor(Window.LAST_30_DAYS, bucket)).isEqualTo("2026-10-26T11:00:00Z");
    }

    @Test
    void calendarWindowsStartAtMidnightInTheZone() {
        // Wednesday 2026-11-25 05:00 in New York (EST, UTC-5)
        Instant bucket = Instant.parse("2026-11-25T10:00:00Z");

        assertThat(NEW_YORK.startFor(Window.DAY, bucket)).isEqualTo("2026-11-25T05:00:00Z");
        assertThat(NEW_YORK.startFor(Window.WEEK, bucket)).isEqualTo("2026-11-23T05:00:00Z");
        // November began in daylight saving time (EDT, UTC-4)
        assertThat(NEW_YORK.startFor(Window.MONTH, bucket)).isEqualTo("2026-11-01T04:00:00Z");
        // the hour before midnight in New York still belongs to the day before
        assertThat(NEW_YORK.startFor(Window.DAY, Instant.parse("2026-11-25T04:00:00Z")))
                .isEqualTo("2026-11-24T05:00:00Z");
    }

    @Test
    void calendarWindowsResetAtTheNextLocalMidnightWhateverTheOffsetDoesInBetween() {
        // Sunday 2026-11-01 09:30 EST, after 02:00 EDT became 01:00 EST: the day began at 04:00Z, ends at 05:00Z
        Map<Window, Instant> afterTheAutumnChange = NEW_YORK.resetsAfter(Instant.parse("2026-11-01T14:00:00Z"));
        // Saturday 2027-03-13 23:00 EST, before 02:00 EST becomes 03:00 EDT: the day ends at 2027-03-14 05:00Z
        Map<Window, Instant> beforeTheSpringChange = NEW_YORK.resetsAfter(Instant.parse("2027-03-14T04:00:00Z"));
        // Sunday 2027-03-14 08:00 EDT: that 23-hour day ends at 04:00Z on Monday, which starts the week
        Map<Window, Instant> afterTheSpringChange = NEW_YORK.resetsAfter(Instant.parse("2027-03-14T12:00:00Z"));

        assertThat(afterTheAutumnChange)
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        Window.DAY, Instant.parse("2026-11-02T05:00:00Z"),
                        Window.WEEK, Instant.parse("2026-11-02T05:00:00Z"),
                        Window.MONTH, Instant.parse("2026-12-01T05:00:00Z")));
        assertThat(beforeTheSpringChange.get(Window.DAY)).isEqualTo("2027-03-14T05:00:00Z");
        assertThat(afterTheSpringChange)
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        Window.DAY, Instant.parse("2027-03-15T04:00:00Z"),
                        Window.WEEK, Instant.parse("2027-03-15T04:00:00Z"),
                        Window.MONTH, Instant.parse("2027-04-01T04:00:00Z")));
        assertThat(WindowCalendar.UTC.resetsAfter(Instant.parse("2026-12-31T23:00:00Z")))
                .containsEntry(Window.DAY, Instant.parse("2027-01-01T00:00:00Z"))
                .containsEntry(Window.MONTH, Instant.parse("2027-01-01T00:00:00Z"))
                .doesNotContainKey(Window.LAST_24_HOURS);
    }

    @Test
    void theWeekOfTheAutumnChangeHasAnHourMoreAndItsDayTwentyFiveHours() {
        // Sunday 2026-11-01: 02:00 EDT becomes 01:00 EST; the week began Monday 2026-10-26 00:00 EDT
        Instant lastHourOfSunday = Instant.parse("2026-11-02T04:00:00Z"); // 23:00 EST
        Instant weekStart = NEW_YORK.startFor(Window.WEEK, lastHourOfSunday);
        Instant dayStart = NEW_YORK.startFor(Window.DAY, lastHourOfSunday);

        assertThat(weekStart).isEqualTo("2026-10-26T04:00:00Z");
        assertThat(Duration.between(weekStart, lastHourOfSunday).toHours() + 1).isEqualTo(7 * 24 + 1);
        assertThat(dayStart).isEqualTo("2026-11-01T04:00:00Z");
        assertThat(Duration.between(dayStart, lastHourOfSunday).toHours() + 1).isEqualTo(25);
        // Monday starts a new week, at midnight EST
        assertThat(NEW_YORK.startFor(Window.WEEK, Instant.parse("2026-11-02T05:00:00Z")))
                .isEqualTo("2026-11-02T05:00:00Z");
        assertThat(NEW_YORK.contains(Window.WEEK, lastHourOfSunday, Instant.parse("2026-10-26T03:00:00Z")))
                .isFalse();
        assertThat(NEW_YORK.contains(Window.WEEK, lastHourOfSunday, weekStart)).isTrue();
    }

    @Test
    void theDayOfTheSpringChangeHasTwentyThreeHours() {
        // Sunday 2026-03-08: 02:00 EST becomes 03:00 EDT
        Instant lastHourOfSunday = Instant.parse("2026-03-09T03:00:00Z"); // 23:00 EDT
        Instant dayStart = NEW_YORK.startFor(Window.DAY, lastHourOfSunday);

        assertThat(dayStart).isEqualTo("2026-03-08T05:00:00Z");
        assertThat(Duration.between(dayStart, lastHourOfSunday).toHours() + 1).isEqualTo(23);
    }

    @Test
    void everyCalendarWindowFitsItsLongestSpan() {
        Instant bucket = Instant.parse("2026-10-01T03:00:00Z"); // 23:00 EDT on the 30th of September
        for (int hour = 0; hour < 24 * 70; hour++, bucket = bucket.plus(Duration.ofHours(1))) {
            for (Window window : Window.values()) {
                if (window.countsUsage()) {
                    Instant start = NEW_YORK.startFor(window, bucket);
                    assertThat(Duration.between(start, bucket).plusHours(1)).isLessThanOrEqualTo(window.longestSpan());
                    assertThat(start.getEpochSecond() % 3600).isZero();
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"Asia/Kolkata", "Asia/Kathmandu", "Australia/Adelaide", "Australia/Lord_Howe"})
    void aZoneWhoseOffsetIsNotWholeHoursIsRefusedNamingTheZoneThePropertyAndTheRule(String zone) {
        assertThatThrownBy(() -> WindowCalendar.checked(ZoneId.of(zone), RETENTION, NOW))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("time zone " + zone + " has the offset")
                .hasMessageContaining("not a whole number of hours")
                .hasMessageContaining("risk.limits.time-zone")
                .hasMessageContaining("from now minus risk.retention on");
    }

    @ParameterizedTest
    @ValueSource(strings = {"UTC", "America/New_York", "Europe/Berlin", "Pacific/Kiritimati", "Etc/GMT+12"})
    void aZoneWithWholeHourOffsetsIsAccepted(String zone) {
        assertThat(WindowCalendar.checked(ZoneId.of(zone), RETENTION, NOW).zone())
                .isEqualTo(ZoneId.of(zone));
    }

    // Caracas: -04:30 from 2007 to 2016-05-01; Pyongyang: +08:30 from 2015 to 2018-05-04; whole hours since
    @ParameterizedTest
    @ValueSource(strings = {"America/Caracas", "Asia/Pyongyang"})
    void aZoneWhoseOffsetWasFractionalOnlyBeforeRetentionIsAccepted(String zone) {
        assertThat(WindowCalendar.checked(ZoneId.of(zone), RETENTION, NOW).zone())
                .isEqualTo(ZoneId.of(zone));
    }

    @Test
    void aFractionalOffsetIsJudgedFromNowMinusRetentionOn() {
        ZoneId caracas = ZoneId.of("America/Caracas");
        // retention reaches back before 2016-05-01 02:30 local time, when -04:30 ended
        Clock twoWeeksAfter = Clock.fixed(Instant.parse("2016-05-15T00:00:00Z"), ZoneOffset.UTC);
        Clock sixWeeksAfter = Clock.fixed(Instant.parse("2016-06-12T12:00:00Z"), ZoneOffset.UTC);

        assertThatThrownBy(() -> WindowCalendar.checked(caracas, RETENTION, twoWeeksAfter))
                .hasMessageContaining("time zone America/Caracas has the offset -04:30");
        assertThat(WindowCalendar.checked(caracas, RETENTION, sixWeeksAfter).zone())
                .isEqualTo(caracas);
    }

    @Test
    void retentionMustCoverTheLongestWindowInUse() {
        assertThat(RetentionRule.shortfall(Duration.ofDays(32), java.util.List.of(Window.values())))
                .isEmpty();
        assertThat(RetentionRule.shortfall(Duration.ofDays(30), java.util.List.of(Window.LAST_30_DAYS, Window.TXN)))
                .isEmpty();
        assertThat(RetentionRule.shortfall(Duration.ofDays(30), java.util.List.of(Window.LAST_24_HOURS, Window.MONTH)))
                .hasValueSatisfying(
                        message -> assertThat(message).contains("risk.retention is 30d", "month window", "746 hours"));
        assertThat(RetentionRule.shortfall(Duration.ofDays(1), java.util.List.of(Window.DAY)))
                .isPresent();
    }
}
