package io.risklimits.decision.hold;

import static io.risklimits.decision.hold.HoldStates.EXPIRES;
import static io.risklimits.decision.hold.HoldStates.FIFTEEN;
import static io.risklimits.decision.hold.HoldStates.TEN;
import static io.risklimits.decision.hold.HoldStates.TWELVE;
import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.Tally;
import org.junit.jupiter.api.Test;

class HoldExpiryTest {

    @Test
    void anExpiryReleasesWhatIsStillHeldMostRecentlyCountedFirstAndTheCountLast() {
        HoldOutcome expiry =
                HoldPolicy.expire(HoldStates.overThreeHours(), EXPIRES).orElseThrow();

        assertThat(expiry.verdict()).isEqualTo(HoldVerdict.EXPIRED);
        assertThat(expiry.releases())
                .containsExactly(
                        new HourTally(FIFTEEN, new Tally(300, 0)),
                        new HourTally(TWELVE, new Tally(200, 0)),
                        new HourTally(TEN, new Tally(1_000, 1)));
        assertThat(expiry.remaining()).isZero();
        assertThat(expiry.expiredFirst()).isNull();
    }

    @Test
    void anExpiryOfAPartlyCapturedHoldReleasesOnlyWhatIsHeldAndKeepsTheCount() {
        HoldOutcome expiry =
                HoldPolicy.expire(HoldStates.partlyCaptured(), EXPIRES).orElseThrow();

        assertThat(expiry.releases()).containsExactly(new HourTally(TEN, new Tally(600, 0)));
        assertThat(expiry.remaining()).isEqualTo(400);
    }

    @Test
    void nothingExpiresBeforeTheExpiryInstant() {
        assertThat(HoldPolicy.expire(HoldStates.open(), EXPIRES.minusNanos(1))).isEmpty();
    }

    @Test
    void anExpiryIsIdempotent() {
        HoldOutcome first = HoldPolicy.expire(HoldStates.open(), EXPIRES).orElseThrow();

        assertThat(HoldPolicy.expire(first.after(), EXPIRES)).isEmpty();
        assertThat(HoldPolicy.expire(first.after(), EXPIRES.plusSeconds(3_600))).isEmpty();
    }

    @Test
    void aHoldThatHoldsNothingAnyMoreStillExpiresReleasingNothingAndClosesForIncrements() {
        HoldLedger capturedInFull = HoldStates.ledgerOf(HoldPolicy.capture(HoldStates.open(), 1_000, false, TWELVE));

        HoldOutcome expiry = HoldPolicy.expire(capturedInFull, EXPIRES).orElseThrow();

        assertThat(expiry.releases()).isEmpty();
        assertThat(expiry.remaining()).isEqualTo(1_000);
        assertThat(((HoldLedger) expiry.after()).status()).isEqualTo(HoldStatus.EXPIRED);
    }

    @Test
    void aFinalSpendNeverExpires() {
        HoldLedger spend = HoldLedger.finalSpend(1_000, HoldStates.AUTHORIZED);

        assertThat(HoldPolicy.expire(spend, EXPIRES.plusSeconds(365L * 24 * 3_600)))
                .isEmpty();
    }
}
