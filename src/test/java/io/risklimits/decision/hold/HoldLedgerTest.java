package io.risklimits.decision.hold;

import static io.risklimits.decision.hold.HoldStates.EXPIRES;
import static io.risklimits.decision.hold.HoldStates.TEN;
import static io.risklimits.decision.hold.HoldStates.TWELVE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import org.junit.jupiter.api.Test;

class HoldLedgerTest {

    private static final CountedPart AUTHORIZATION = new CountedPart(PartKind.AUTHORIZATION, TEN, 1_000, 100);
    private static final CountedPart INCREMENT = new CountedPart(PartKind.INCREMENT, TWELVE, 200, 0);
    private static final CountedPart OVER_CAPTURE = new CountedPart(PartKind.OVER_CAPTURE, TWELVE, 50, 20);

    @Test
    void whatIsCountedIsTheAmountPlusIncrementsPlusOverCapturesMinusWhatWasReleased() {
        HoldLedger ledger =
                new HoldLedger(List.of(AUTHORIZATION, INCREMENT, OVER_CAPTURE), 300, HoldStatus.OPEN, EXPIRES, TEN);

        assertThat(ledger.amount()).isEqualTo(1_000);
        assertThat(ledger.increments()).isEqualTo(200);
        assertThat(ledger.overCaptured()).isEqualTo(50);
        assertThat(ledger.released()).isEqualTo(120);
        assertThat(ledger.counted()).isEqualTo(1_000 + 200 + 50 - 120);
        assertThat(ledger.held()).isEqualTo(1_130 - 300);
    }

    @Test
    void onlyAnOpenHoldHoldsAnything() {
        List<CountedPart> parts = List.of(AUTHORIZATION);

        assertThat(new HoldLedger(parts, 0, HoldStatus.OPEN, EXPIRES, TEN).held())
                .isEqualTo(900);
        assertThat(new HoldLedger(parts, 0, HoldStatus.EXPIRED, EXPIRES, TEN).held())
                .isZero();
        assertThat(new HoldLedger(parts, 0, HoldStatus.CAPTURED, EXPIRES, TEN).held())
                .isZero();
        assertThat(new HoldLedger(parts, 0, HoldStatus.OPEN, null, TEN).held()).isZero();
    }

    @Test
    void whatWasCapturedBeyondWhatIsCountedLeavesNothingHeld() {
        assertThat(new HoldLedger(List.of(AUTHORIZATION), 950, HoldStatus.OPEN, EXPIRES, TEN).held())
                .isZero();
    }

    @Test
    void aPartNeverReleasesMoreThanItsAmountNorLessThanNothing() {
        assertThatIllegalArgumentException().isThrownBy(() -> new CountedPart(PartKind.INCREMENT, TEN, 100, 101));
        assertThatIllegalArgumentException().isThrownBy(() -> new CountedPart(PartKind.INCREMENT, TEN, 100, -1));
        assertThatIllegalArgumentException().isThrownBy(() -> new CountedPart(PartKind.INCREMENT, TEN, 0, 0));
    }

    @Test
    void aPartIsCountedInAWholeHour() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new CountedPart(PartKind.INCREMENT, TEN.plusSeconds(1), 100, 0));
    }

    @Test
    void theAuthorizationIsTheFirstPartAndTheOnlyOne() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new HoldLedger(List.of(INCREMENT), 0, HoldStatus.OPEN, EXPIRES, TEN));
        assertThatIllegalArgumentException()
                .isThrownBy(
                        () -> new HoldLedger(List.of(AUTHORIZATION, AUTHORIZATION), 0, HoldStatus.OPEN, EXPIRES, TEN));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new HoldLedger(List.of(), 0, HoldStatus.OPEN, EXPIRES, TEN));
    }

    @Test
    void theCountIsInAnHourExactlyWhenSomethingIsCounted() {
        CountedPart releasedInFull = new CountedPart(PartKind.AUTHORIZATION, TEN, 1_000, 1_000);

        assertThatIllegalArgumentException()
                .isThrownBy(() -> new HoldLedger(List.of(AUTHORIZATION), 0, HoldStatus.OPEN, EXPIRES, null));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new HoldLedger(List.of(releasedInFull), 0, HoldStatus.RELEASED, EXPIRES, TEN));
        assertThat(new HoldLedger(List.of(releasedInFull), 0, HoldStatus.RELEASED, EXPIRES, null).counted())
                .isZero();
    }

    @Test
    void aFinalSpendIsNeverCapturedNorExpiredAsAHold() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new HoldLedger(List.of(AUTHORIZATION), 0, HoldStatus.EXPIRED, null, TEN));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new HoldLedger(List.of(AUTHORIZATION), 0, HoldStatus.CAPTURED, null, TEN));
    }

    @Test
    void aNewHoldIsCountedInTheHourItWasDecidedIn() {
        HoldLedger hold = HoldStates.open();

        assertThat(hold.parts()).containsExactly(new CountedPart(PartKind.AUTHORIZATION, TEN, 1_000, 0));
        assertThat(hold.countHour()).isEqualTo(TEN);
        assertThat(hold.isHold()).isTrue();
        assertThat(hold.isDueAt(EXPIRES.minusNanos(1))).isFalse();
        assertThat(hold.isDueAt(EXPIRES)).isTrue();
        assertThat(HoldLedger.finalSpend(1_000, HoldStates.AUTHORIZED).isHold()).isFalse();
    }
}
