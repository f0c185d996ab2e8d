package io.risklimits.backtest;

import io.risklimits.decision.Window;
import io.risklimits.decision.WindowCalendar;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;

/**
 * What the audit log is sure to hold: every decision of the hours from the retention cutoff on
 * ({@code date_trunc('hour', now - risk.retention)}, the archiver's own cutoff: it deletes only older
 * hours, however far its runs have got). A backtest starts each key from the usage recorded before its
 * period, so the period may begin only where every window of the proposed limits, over the period's
 * first hour, starts at the cutoff or later; an earlier start would replay from too little usage.
 *
 * @param cutoff the first hour surely held, on an hour boundary
 */
public record RetainedHistory(Instant cutoff) {

    /** The earliest start of a period whose windows stay inside the retained hours (an hour boundary). */
    public Instant earliestFrom(Collection<Window> windows, WindowCalendar calendar) {
        Instant firstHour = cutoff;
        // each window's start only moves forward with the hour, so the first hour that fits is the earliest
        while (reachesBeforeCutoff(firstHour, windows, calendar)) {
            firstHour = firstHour.plus(Duration.ofHours(1));
        }
        return firstHour;
    }

    private boolean reachesBeforeCutoff(Instant firstHour, Collection<Window> windows, WindowCalendar calendar) {
        return windows.stream()
                .filter(Window::countsUsage)
                .anyMatch(window -> calendar.startFor(window, firstHour).isBefore(cutoff));
    }
}
