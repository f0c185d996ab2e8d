package io.risklimits.decision;

import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/**
 * Retention must cover the longest window in use: a window whose earliest buckets were deleted would
 * report less usage than there was and approve what its limit forbids.
 */
public final class RetentionRule {

    private RetentionRule() {}

    /** Why the retention is too short for the windows in use, naming both; empty when it is long enough. */
    public static Optional<String> shortfall(Duration retention, Collection<Window> windowsInUse) {
        return windowsInUse.stream()
                .max(Comparator.comparing(Window::longestSpan))
                .filter(longest -> retention.compareTo(longest.longestSpan()) < 0)
                .map(longest -> "risk.retention is " + describe(retention) + " but a limit uses the " + longest.label()
                        + " window, which spans up to " + longest.longestSpan().toHours()
                        + " hours: deleting younger buckets would make usage look smaller than it is and"
                        + " approve what the limits forbid");
    }

    private static String describe(Duration duration) {
        return duration.toHoursPart() == 0 && duration.toMinutesPart() == 0 && duration.toSecondsPart() == 0
                ? duration.toDays() + "d"
                : duration.toString();
    }
}
