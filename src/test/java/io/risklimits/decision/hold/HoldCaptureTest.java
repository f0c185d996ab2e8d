package io.risklimits.decision.hold;

import static io.risklimits.decision.hold.HoldStates.EXPIRES;
import static io.risklimits.decision.hold.HoldStates.FIFTEEN;
import static io.risklimits.decision.hold.HoldStates.TEN;
import static io.risklimits.decision.hold.HoldStates.TWELVE;
import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.Tally;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class HoldCaptureTest {

    private static final Instant SEVENTEEN = FIFTEEN.plus(Duration.ofHours(2));
    private static final Instant NOW = SEVENTEEN.plusSeconds(90);

    @Test
    void aCaptureUpToWhatIsHeldOnlyTurnsHeldIntoSpent() {
        HoldOutcome outcome = HoldPolicy.capture(HoldStates.open(), 300, false, NOW);

        assertThat(outcome.captured()).isEqualTo(300);
        assertThat(outcome.overCaptured()).isZero();
        assertThat(outcome.releases()).isEmpty();
        assertThat(outcome.additions()).isEmpty();
        HoldLedger after = (HoldLedger) outcome.after();
        assertThat(after.counted()).isEqualTo(1_000);
        assertThat(after.held()).isEqualTo(700);
        assertThat(after.captured()).isEqualTo(300);
        assertThat(after.status()).isEqualTo(HoldStatus.OPEN);
    }

    @Test
    void aNonFinalCaptureLeavesTheRestHeldForTheNextCapture() {
        HoldLedger partly = HoldStates.ledgerOf(HoldPolicy.capture(HoldStates.open(), 300, false, NOW));

        HoldOutcome second = HoldPolicy.capture(partly, 500, true, NOW);

        assertThat(second.captured()).isEqualTo(500);
        assertThat(second.released()).isEqualTo(new Tally(200, 0));
        assertThat(second.remaining()).isEqualTo(800);
        assertThat(((HoldLedger) second.after()).status()).isEqualTo(HoldStatus.CAPTURED);
    }

    @Test
    void aFinalCaptureReleasesWhatIsStillHeldMostRecentlyCountedFirstAndClosesTheHold() {
        HoldOutcome outcome = HoldPolicy.capture(HoldStates.overThreeHours(), 600, true, NOW);

        assertThat(outcome.captured()).isEqualTo(600);
        assertThat(outcome.releases())
                .containsExactly(
                        new HourTally(FIFTEEN, new Tally(300, 0)),
                        new HourTally(TWELVE, new Tally(200, 0)),
                        new HourTally(TEN, new Tally(400, 0)));
        HoldLedger after = (HoldLedger) outcome.after();
        assertThat(after.status()).isEqualTo(HoldStatus.CAPTURED);
        assertThat(after.counted()).isEqualTo(600);
        assertThat(after.countHour()).isEqualTo(TEN);
        assertThat(after.held()).isZero();
    }

    @Test
    void aCaptureBeyondWhatIsHeldCountsTheExcessInTheCurrentHourWithoutASecondCount() {
        HoldOutcome outcome = HoldPolicy.capture(HoldStates.open(), 1_200, true, NOW);

        assertThat(outcome.captured()).isEqualTo(1_000);
        assertThat(outcome.overCaptured()).isEqualTo(200);
        assertThat(outcome.additions()).containsExactly(new HourTally(SEVENTEEN, new Tally(200, 0)));
        assertThat(outcome.releases()).isEmpty();
        HoldLedger after = (HoldLedger) outcome.after();
        assertThat(after.overCaptured()).isEqualTo(200);
        assertThat(after.counted()).isEqualTo(1_200);
        assertThat(after.status()).isEqualTo(HoldStatus.CAPTURED);
    }

    @Test
    void aCaptureAfterAFinalCaptureIsCountedAnewInFull() {
        HoldOutcome outcome = HoldPolicy.capture(HoldStates.finallyCaptured(), 50, true, NOW);

        assertThat(outcome.captured()).isZero();
        assertThat(outcome.overCaptured()).isEqualTo(50);
        assertThat(outcome.additions()).containsExactly(new HourTally(SEVENTEEN, new Tally(50, 0)));
        assertThat(outcome.remaining()).isEqualTo(450);
    }

    @Test
    void aLateCaptureOfAnExpiredHoldBringsTheCountBackInItsHourAndAReversalTakesItFromThere() {
        HoldOutcome late = HoldPolicy.capture(HoldStates.expired(), 300, true, EXPIRES.plus(Duration.ofDays(1)));
        Instant lateHour = HourTally.hourOf(EXPIRES.plus(Duration.ofDays(1)));

        assertThat(late.additions()).containsExactly(new HourTally(lateHour, new Tally(300, 1)));
        HoldLedger after = (HoldLedger) late.after();
        assertThat(after.countHour()).isEqualTo(lateHour);
        assertThat(after.status()).isEqualTo(HoldStatus.EXPIRED);

        HoldOutcome refund = HoldPolicy.reverse(after, 300, EXPIRES.plus(Duration.ofDays(2)));

        assertThat(refund.releases()).containsExactly(new HourTally(lateHour, new Tally(300, 1)));
    }

    @Test
    void aCaptureWithoutAnAuthorizationIsCountedWithACountOfItsOwn() {
        HoldOutcome outcome = HoldPolicy.capture(Original.NoLedger.NOT_FOUND, 700, true, NOW);

        assertThat(outcome.verdict()).isEqualTo(HoldVerdict.CAPTURED);
        assertThat(outcome.captured()).isZero();
        assertThat(outcome.overCaptured()).isEqualTo(700);
        assertThat(outcome.additions()).containsExactly(new HourTally(SEVENTEEN, new Tally(700, 1)));
        assertThat(outcome.after()).isEqualTo(Original.NoLedger.NOT_FOUND);
        assertThat(outcome.remaining()).isNull();
    }

    @Test
    void aCaptureOfAFinalSpendHoldsNothingSoItIsCountedAnew() {
        HoldLedger spend = HoldLedger.finalSpend(1_000, HoldStates.AUTHORIZED);

        HoldOutcome outcome = HoldPolicy.capture(spend, 1_000, true, NOW);

        assertThat(outcome.captured()).isZero();
        assertThat(outcome.overCaptured()).isEqualTo(1_000);
        assertThat(outcome.additions()).containsExactly(new HourTally(SEVENTEEN, new Tally(1_000, 0)));
        assertThat(((HoldLedger) outcome.after()).status()).isEqualTo(HoldStatus.OPEN);
    }
}
