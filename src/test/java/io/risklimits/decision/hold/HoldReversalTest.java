package io.risklimits.decision.hold;

import static io.risklimits.decision.hold.HoldStates.EXPIRES;
import static io.risklimits.decision.hold.HoldStates.FIFTEEN;
import static io.risklimits.decision.hold.HoldStates.TEN;
import static io.risklimits.decision.hold.HoldStates.TWELVE;
import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.Tally;
import io.risklimits.decision.hold.HoldReason.HoldRule;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class HoldReversalTest {

    private static final Instant LATER = FIFTEEN.plus(Duration.ofHours(2));

    @Test
    void aPartialReversalIsGivenBackToTheMostRecentlyCountedHoursFirstAndKeepsTheCount() {
        HoldOutcome outcome = HoldPolicy.reverse(HoldStates.overThreeHours(), 400, LATER);

        assertThat(outcome.verdict()).isEqualTo(HoldVerdict.RELEASED);
        assertThat(outcome.releases())
                .containsExactly(new HourTally(FIFTEEN, new Tally(300, 0)), new HourTally(TWELVE, new Tally(100, 0)));
        assertThat(outcome.released()).isEqualTo(new Tally(400, 0));
        assertThat(outcome.remaining()).isEqualTo(1_100);
        HoldLedger after = (HoldLedger) outcome.after();
        assertThat(after.parts()).extracting(CountedPart::released).containsExactly(0L, 100L, 300L);
        assertThat(after.status()).isEqualTo(HoldStatus.OPEN);
        assertThat(after.held()).isEqualTo(1_100);
    }

    @Test
    void theReversalThatLeavesNothingCountedTakesTheCountFromTheAuthorizationsHourAndClosesTheHold() {
        HoldLedger twiceReleased = HoldStates.ledgerOf(HoldPolicy.reverse(HoldStates.overThreeHours(), 400, LATER));

        HoldOutcome outcome = HoldPolicy.reverse(twiceReleased, 1_100, LATER);

        assertThat(outcome.releases())
                .containsExactly(new HourTally(TWELVE, new Tally(100, 0)), new HourTally(TEN, new Tally(1_000, 1)));
        assertThat(outcome.released()).isEqualTo(new Tally(1_100, 1));
        assertThat(outcome.remaining()).isZero();
        HoldLedger after = (HoldLedger) outcome.after();
        assertThat(after.status()).isEqualTo(HoldStatus.RELEASED);
        assertThat(after.countHour()).isNull();
    }

    @Test
    void moreThanIsStillCountedIsRejectedSaysWhatRemainsAndChangesNothing() {
        HoldLedger ledger = HoldStates.overThreeHours();

        HoldOutcome outcome = HoldPolicy.reverse(ledger, 1_501, LATER);

        assertThat(outcome.verdict()).isEqualTo(HoldVerdict.REJECTED);
        assertThat(outcome.reason()).isEqualTo(HoldRule.EXCEEDS_REMAINING);
        assertThat(outcome.reason().code()).isEqualTo("EXCEEDS_REMAINING");
        assertThat(outcome.remaining()).isEqualTo(1_500);
        assertThat(outcome.releases()).isEmpty();
        assertThat(outcome.after()).isEqualTo(ledger);
    }

    @Test
    void aReversalOfAPartlyCapturedHoldTakesWhatIsHeldFirstThenWhatWasCaptured() {
        HoldOutcome outcome = HoldPolicy.reverse(HoldStates.partlyCaptured(), 700, LATER);

        HoldLedger after = (HoldLedger) outcome.after();
        assertThat(outcome.released()).isEqualTo(new Tally(700, 0));
        assertThat(after.counted()).isEqualTo(300);
        assertThat(after.held()).isZero();
        assertThat(after.status()).isEqualTo(HoldStatus.OPEN);
    }

    @Test
    void aReversalAfterExpiryCanReleaseOnlyWhatWasCapturedAndThenTheCount() {
        HoldLedger expired = HoldStates.ledgerOf(
                HoldPolicy.expire(HoldStates.partlyCaptured(), EXPIRES).orElseThrow());

        HoldOutcome tooMuch = HoldPolicy.reverse(expired, 401, EXPIRES);
        HoldOutcome captured = HoldPolicy.reverse(expired, 400, EXPIRES);

        assertThat(tooMuch.reason()).isEqualTo(HoldRule.EXCEEDS_REMAINING);
        assertThat(tooMuch.remaining()).isEqualTo(400);
        assertThat(captured.releases()).containsExactly(new HourTally(TEN, new Tally(400, 1)));
        assertThat(((HoldLedger) captured.after()).status()).isEqualTo(HoldStatus.EXPIRED);
    }

    @Test
    void aReversalAtTheExpiryInstantFindsTheHoldExpiredFirst() {
        HoldOutcome outcome = HoldPolicy.reverse(HoldStates.open(), 100, EXPIRES);

        assertThat(outcome.expiredFirst()).isNotNull();
        assertThat(outcome.expiredFirst().verdict()).isEqualTo(HoldVerdict.EXPIRED);
        assertThat(outcome.expiredFirst().released()).isEqualTo(new Tally(1_000, 1));
        assertThat(outcome.reason()).isEqualTo(HoldRule.EXCEEDS_REMAINING);
        assertThat(outcome.remaining()).isZero();
        assertThat(((HoldLedger) outcome.after()).status()).isEqualTo(HoldStatus.EXPIRED);
    }

    @Test
    void aFinalSpendIsReversedByTheRulesOfVersionTwoAndNeverExpires() {
        HoldLedger spend = HoldLedger.finalSpend(1_000, HoldStates.AUTHORIZED);
        Instant aYearLater = HoldStates.AUTHORIZED.plus(Duration.ofDays(365));

        HoldOutcome partial = HoldPolicy.reverse(spend, 300, aYearLater);
        HoldOutcome rest = HoldPolicy.reverse(partial.after(), 700, aYearLater);

        assertThat(partial.expiredFirst()).isNull();
        assertThat(partial.releases()).containsExactly(new HourTally(TEN, new Tally(300, 0)));
        assertThat(partial.remaining()).isEqualTo(700);
        assertThat(rest.releases()).containsExactly(new HourTally(TEN, new Tally(700, 1)));
        assertThat(rest.remaining()).isZero();
    }
}
