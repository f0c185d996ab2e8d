package io.risklimits.backtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.Window;
import io.risklimits.decision.WindowCalendar;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetainedHistoryTest {

    private static final RetainedHistory FROM_OCTOBER_25 = new RetainedHistory(Instant.parse("2026-10-25T13:00:00Z"));
    private static final WindowCalendar NEW_YORK = new WindowCalendar(ZoneId.of("America/New_York"));

    @Test
    void aRollingWindowNeedsItsHoursBeforeTheFirstHourOfThePeriod() {
        assertThat(FROM_OCTOBER_25.earliestFrom(List.of(Window.LAST_24_HOURS), NEW_YORK))
                .isEqualTo("2026-10-26T12:00:00Z");
        assertThat(FROM_OCTOBER_25.earliestFrom(List.of(Window.LAST_24_HOURS, Window.LAST_7_DAYS), NEW_YORK))
                .isEqualTo("2026-11-01T12:00:00Z");
    }

    @Test
    void aCalendarWindowNeedsItsStartInTheZone() {
        // the first midnight in New York after the cutoff (EDT), and the first day of November there
        assertThat(FROM_OCTOBER_25.earliestFrom(List.of(Window.DAY), NEW_YORK)).isEqualTo("2026-10-26T04:00:00Z");
        assertThat(FROM_OCTOBER_25.earliestFrom(List.of(Window.MONTH), NEW_YORK))
                .isEqualTo("2026-11-01T04:00:00Z");
    }

    @Test
    void aCapOnOneAuthorizationNeedsNoHistory() {
        assertThat(FROM_OCTOBER_25.earliestFrom(List.of(Window.TXN), NEW_YORK)).isEqualTo(FROM_OCTOBER_25.cutoff());
        assertThat(FROM_OCTOBER_25.earliestFrom(List.of(), NEW_YORK)).isEqualTo(FROM_OCTOBER_25.cutoff());
    }
}
