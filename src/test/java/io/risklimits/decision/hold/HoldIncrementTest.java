package io.risklimits.decision.hold;

import static io.risklimits.decision.hold.HoldStates.EXPIRES;
import static io.risklimits.decision.hold.HoldStates.TEN;
import static io.risklimits.decision.hold.HoldStates.THIRTEEN;
import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.Reason;
import io.risklimits.decision.Tally;
import io.risklimits.decision.hold.HoldReason.HoldRule;
import io.risklimits.decision.hold.HoldReason.LimitExceeded;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class HoldIncrementTest {

    private static final Instant NOW = THIRTEEN.plusSeconds(30);

    @Test
    void anApprovedIncrementIsCountedInTheCurrentHourAndAddsNoCount() {
        HoldOutcome outcome = HoldPolicy.increment(HoldStates.open(), 250, NOW, null, null);

        assertThat(outcome.verdict()).isEqualTo(HoldVerdict.APPROVED);
        assertThat(outcome.reason()).isNull();
        assertThat(outcome.additions()).containsExactly(new HourTally(THIRTEEN, new Tally(250, 0)));
        HoldLedger after = (HoldLedger) outcome.after();
        assertThat(after.parts())
                .containsExactly(
                        new CountedPart(PartKind.AUTHORIZATION, TEN, 1_000, 0),
                        new CountedPart(PartKind.INCREMENT, THIRTEEN, 250, 0));
        assertThat(after.increments()).isEqualTo(250);
        assertThat(after.held()).isEqualTo(1_250);
        assertThat(after.countHour()).isEqualTo(TEN);
        assertThat(after.expiresAt()).isEqualTo(EXPIRES);
    }

    @Test
    void anIncrementThatGivesAnExpiryMovesIt() {
        Instant extended = EXPIRES.plus(Duration.ofDays(3));

        HoldOutcome outcome = HoldPolicy.increment(HoldStates.open(), 250, NOW, extended, null);

        assertThat(((HoldLedger) outcome.after()).expiresAt()).isEqualTo(extended);
        assertThat(HoldPolicy.expire(outcome.after(), EXPIRES)).isEmpty();
        assertThat(HoldPolicy.expire(outcome.after(), extended)).isPresent();
    }

    @Test
    void anIncrementTheLimitsRefuseIsRejectedWithTheLimitsReasonAndLeavesTheHoldUnchanged() {
        HoldLedger open = HoldStates.open();

        HoldOutcome outcome =
                HoldPolicy.increment(open, 250, NOW, EXPIRES.plus(Duration.ofDays(1)), Reason.LIMIT_24H_AMOUNT);

        assertThat(outcome.verdict()).isEqualTo(HoldVerdict.REJECTED);
        assertThat(outcome.reason()).isEqualTo(new LimitExceeded(Reason.LIMIT_24H_AMOUNT));
        assertThat(outcome.reason().code()).isEqualTo("LIMIT_24H_AMOUNT");
        assertThat(outcome.additions()).isEmpty();
        assertThat(outcome.after()).isEqualTo(open);
    }

    @Test
    void aClosedHoldIsClosedWhateverTheLimitsSay() {
        HoldOutcome outcome =
                HoldPolicy.increment(HoldStates.finallyCaptured(), 250, NOW, null, Reason.ACCOUNT_LIMIT_7D_AMOUNT);

        assertThat(outcome.reason()).isEqualTo(HoldRule.HOLD_CLOSED);
        assertThat(outcome.reason().code()).isEqualTo("HOLD_CLOSED");
    }

    @Test
    void aFinalSpendIsNotAnApprovedHold() {
        HoldOutcome outcome =
                HoldPolicy.increment(HoldLedger.finalSpend(1_000, HoldStates.AUTHORIZED), 250, NOW, null, null);

        assertThat(outcome.reason()).isEqualTo(HoldRule.ORIGINAL_NOT_APPROVED);
    }

    @Test
    void anIncrementOfAHoldHeldInFullByCapturesIsApproved() {
        HoldLedger capturedInFull = HoldStates.ledgerOf(HoldPolicy.capture(HoldStates.open(), 1_000, false, NOW));

        HoldOutcome outcome = HoldPolicy.increment(capturedInFull, 250, NOW, null, null);

        assertThat(outcome.verdict()).isEqualTo(HoldVerdict.APPROVED);
        assertThat(((HoldLedger) outcome.after()).held()).isEqualTo(250);
    }

    @Test
    void anIncrementAtTheExpiryInstantFindsTheHoldExpiredAndClosed() {
        HoldOutcome outcome = HoldPolicy.increment(HoldStates.open(), 250, EXPIRES, null, null);

        assertThat(outcome.reason()).isEqualTo(HoldRule.HOLD_CLOSED);
        assertThat(outcome.expiredFirst().released()).isEqualTo(new Tally(1_000, 1));
        assertThat(((HoldLedger) outcome.after()).status()).isEqualTo(HoldStatus.EXPIRED);
        assertThat(outcome.additions()).isEmpty();
    }

    @Test
    void anIncrementJustBeforeTheExpiryInstantIsApproved() {
        HoldOutcome outcome = HoldPolicy.increment(HoldStates.open(), 250, EXPIRES.minusNanos(1), null, null);

        assertThat(outcome.verdict()).isEqualTo(HoldVerdict.APPROVED);
        assertThat(outcome.expiredFirst()).isNull();
    }

    @Test
    void theTotalAnIncrementIsCappedAgainstIsTheAuthorizationAndItsIncrements() {
        HoldLedger ledger = HoldStates.overThreeHours();

        assertThat(ledger.authorized()).isEqualTo(1_500);
    }
}
