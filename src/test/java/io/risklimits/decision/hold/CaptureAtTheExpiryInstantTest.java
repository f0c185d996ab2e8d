package io.risklimits.decision.hold;

import static io.risklimits.decision.hold.HoldStates.EXPIRES;
import static io.risklimits.decision.hold.HoldStates.TEN;
import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.Tally;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A capture and its hold's expiry at the same instant: a decision made at or after expires_at never
 * counts an expired hold, so exactly one of "captured from the hold" (before the instant) or "expired,
 * then counted anew as a late capture" (at it or after) happens, whether or not a sweep ran first.
 */
class CaptureAtTheExpiryInstantTest {

    private static final Instant EXPIRY_HOUR = HourTally.hourOf(EXPIRES);

    @Test
    void aCaptureAtTheExpiryInstantFindsTheHoldExpiredAndIsCountedAnewAsALateCapture() {
        HoldOutcome capture = HoldPolicy.capture(HoldStates.open(), 1_000, true, EXPIRES);

        assertThat(capture.expiredFirst()).isNotNull();
        assertThat(capture.expiredFirst().verdict()).isEqualTo(HoldVerdict.EXPIRED);
        assertThat(capture.expiredFirst().releases()).containsExactly(new HourTally(TEN, new Tally(1_000, 1)));
        assertThat(capture.captured()).isZero();
        assertThat(capture.overCaptured()).isEqualTo(1_000);
        assertThat(capture.additions()).containsExactly(new HourTally(EXPIRY_HOUR, new Tally(1_000, 1)));
        HoldLedger after = (HoldLedger) capture.after();
        assertThat(after.status()).isEqualTo(HoldStatus.EXPIRED);
        assertThat(after.counted()).isEqualTo(1_000);
        assertThat(after.countHour()).isEqualTo(EXPIRY_HOUR);
    }

    @Test
    void aCaptureJustBeforeTheExpiryInstantIsCapturedFromTheHoldAndNothingExpiresAfterIt() {
        HoldOutcome capture = HoldPolicy.capture(HoldStates.open(), 1_000, true, EXPIRES.minusNanos(1));

        assertThat(capture.expiredFirst()).isNull();
        assertThat(capture.captured()).isEqualTo(1_000);
        assertThat(capture.overCaptured()).isZero();
        assertThat(capture.additions()).isEmpty();
        assertThat(((HoldLedger) capture.after()).status()).isEqualTo(HoldStatus.CAPTURED);
        assertThat(HoldPolicy.expire(capture.after(), EXPIRES)).isEmpty();
    }

    @Test
    void aSweepAtTheInstantThenTheCaptureCountsWhatTheCaptureAloneCounts() {
        HoldOutcome alone = HoldPolicy.capture(HoldStates.open(), 1_000, true, EXPIRES);
        HoldOutcome sweep = HoldPolicy.expire(HoldStates.open(), EXPIRES).orElseThrow();
        HoldOutcome afterTheSweep = HoldPolicy.capture(sweep.after(), 1_000, true, EXPIRES);

        assertThat(afterTheSweep.expiredFirst()).isNull();
        assertThat(bucketChanges(sweep, afterTheSweep)).isEqualTo(bucketChanges(alone.expiredFirst(), alone));
        assertThat(afterTheSweep.after()).isEqualTo(alone.after());
    }

    private static List<HourTally> bucketChanges(HoldOutcome expiry, HoldOutcome capture) {
        List<HourTally> changes = new ArrayList<>(expiry.releases());
        changes.addAll(capture.releases());
        changes.addAll(capture.additions());
        return changes;
    }
}
