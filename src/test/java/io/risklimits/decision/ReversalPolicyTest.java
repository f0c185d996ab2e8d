package io.risklimits.decision;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReversalPolicyTest {

    private static final ReversalPolicy.Original APPROVED_1000 =
            new ReversalPolicy.Original(EventType.AUTHORIZATION, Verdict.APPROVED, 1_000, 0);

    @Test
    void aReversalWithoutAnOriginalIsRejected() {
        ReversalPolicy.Outcome outcome = ReversalPolicy.decide(10, null);

        assertThat(outcome.verdict()).isEqualTo(Verdict.REJECTED);
        assertThat(outcome.reason()).isEqualTo(Reason.ORIGINAL_NOT_FOUND);
        assertThat(outcome.released()).isNull();
        assertThat(outcome.remaining()).isNull();
    }

    @Test
    void onlyAnApprovedAuthorizationCanBeReversed() {
        ReversalPolicy.Original rejected =
                new ReversalPolicy.Original(EventType.AUTHORIZATION, Verdict.REJECTED, 1_000, 0);
        ReversalPolicy.Original invalid =
                new ReversalPolicy.Original(EventType.AUTHORIZATION, Verdict.INVALID, 1_000, 0);
        ReversalPolicy.Original reversal = new ReversalPolicy.Original(EventType.REVERSAL, Verdict.RELEASED, 1_000, 0);

        for (ReversalPolicy.Original original : new ReversalPolicy.Original[] {rejected, invalid, reversal}) {
            ReversalPolicy.Outcome outcome = ReversalPolicy.decide(10, original);
            assertThat(outcome.reason()).isEqualTo(Reason.ORIGINAL_NOT_APPROVED);
            assertThat(outcome.remaining()).isNull();
        }
    }

    @Test
    void aPartialReversalReleasesItsAmountAndKeepsTheCount() {
        ReversalPolicy.Outcome outcome = ReversalPolicy.decide(300, APPROVED_1000);

        assertThat(outcome.verdict()).isEqualTo(Verdict.RELEASED);
        assertThat(outcome.reason()).isNull();
        assertThat(outcome.released()).isEqualTo(new Tally(300, 0));
        assertThat(outcome.remaining()).isEqualTo(700);
    }

    @Test
    void theReversalThatReleasesTheRestReleasesTheCountToo() {
        ReversalPolicy.Original twiceReleased =
                new ReversalPolicy.Original(EventType.AUTHORIZATION, Verdict.APPROVED, 1_000, 600);

        ReversalPolicy.Outcome outcome = ReversalPolicy.decide(400, twiceReleased);

        assertThat(outcome.released()).isEqualTo(new Tally(400, 1));
        assertThat(outcome.remaining()).isZero();
    }

    @Test
    void moreThanRemainsIsRejectedAndSaysWhatRemains() {
        ReversalPolicy.Original released =
                new ReversalPolicy.Original(EventType.AUTHORIZATION, Verdict.APPROVED, 1_000, 600);

        ReversalPolicy.Outcome outcome = ReversalPolicy.decide(401, released);

        assertThat(outcome.verdict()).isEqualTo(Verdict.REJECTED);
        assertThat(outcome.reason()).isEqualTo(Reason.EXCEEDS_REMAINING);
        assertThat(outcome.released()).isNull();
        assertThat(outcome.remaining()).isEqualTo(400);
    }

    @Test
    void aReleaseShrinksOnlyTheWindowsThatStillHoldItsHour() {
        Instant now = Instant.parse("2026-11-25T10:00:00Z");
        Instant threeDaysAgo = now.minus(3, ChronoUnit.DAYS);
        Usage usage = new Usage(Map.of(
                Window.LAST_24_HOURS, new Tally(100, 1),
                Window.LAST_7_DAYS, new Tally(1_100, 3),
                Window.LAST_30_DAYS, new Tally(5_100, 9)));

        Usage after = usage.minus(new Tally(1_000, 1), threeDaysAgo, now, WindowCalendar.UTC);

        assertThat(after.of(Window.LAST_24_HOURS)).isEqualTo(new Tally(100, 1));
        assertThat(after.of(Window.LAST_7_DAYS)).isEqualTo(new Tally(100, 2));
        assertThat(after.of(Window.LAST_30_DAYS)).isEqualTo(new Tally(4_100, 8));
    }

    @Test
    void aWindowContainsItsFirstHourAndNotTheOneBefore() {
        Instant now = Instant.parse("2026-11-25T10:00:00Z");

        assertThat(WindowCalendar.UTC.contains(Window.LAST_24_HOURS, now, now.minus(23, ChronoUnit.HOURS)))
                .isTrue();
        assertThat(WindowCalendar.UTC.contains(Window.LAST_24_HOURS, now, now.minus(24, ChronoUnit.HOURS)))
                .isFalse();
        assertThat(WindowCalendar.UTC.contains(Window.LAST_24_HOURS, now, now)).isTrue();
    }
}
