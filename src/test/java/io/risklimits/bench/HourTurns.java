package io.risklimits.bench;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Keeps the measured phases off the turn of the hour. When the hour turns, every key's remembered window
 * starts expire and the decider reads them afresh, as a running service does once an hour: a phase across
 * the turn, or right after it, would measure that re-read instead of the steady state every other phase
 * measures, and its round would stand apart from the others. So before each phase: within {@link #MARGIN}
 * of the turn, wait for it; once the hour has turned, remember the key sets' window starts again, not
 * measured, as the run did before its first phase.
 */
final class HourTurns {

    // longer than any phase the quick run sizes (5 s at least, the wide key set's up to ~17 s)
    static final Duration MARGIN = Duration.ofSeconds(30);

    private final Runnable rememberWindowStarts;
    private Instant rememberedHour;

    /** @param rememberWindowStarts remembers the key sets' window starts; has just run */
    HourTurns(Runnable rememberWindowStarts) {
        this.rememberWindowStarts = rememberWindowStarts;
        this.rememberedHour = currentHour();
    }

    void beforePhase(String phase) {
        Instant now = Instant.now();
        Instant turn = currentHour().plus(Duration.ofHours(1));
        Duration left = Duration.between(now, turn);
        if (left.compareTo(MARGIN) < 0) {
            System.out.printf(
                    "Benchmark: %s waits %.0f s for the hour to turn, so as not to run across it%n",
                    phase, left.toMillis() / 1e3);
            sleep(left.plusSeconds(1));
        }
        if (!currentHour().equals(rememberedHour)) {
            System.out.printf("Benchmark: the hour turned before %s: window starts remembered again%n", phase);
            rememberWindowStarts.run();
            rememberedHour = currentHour();
        }
    }

    private static Instant currentHour() {
        return Instant.now().truncatedTo(ChronoUnit.HOURS);
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the hour to turn", e);
        }
    }
}
