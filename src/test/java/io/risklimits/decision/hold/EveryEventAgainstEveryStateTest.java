package io.risklimits.decision.hold;

import static io.risklimits.decision.hold.HoldStates.EXPIRES;
import static io.risklimits.decision.hold.HoldStates.THIRTEEN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.risklimits.decision.Tally;
import io.risklimits.decision.hold.HoldReason.HoldRule;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each event type against each state of its original, at thirteen (before the expiry) unless said. */
class EveryEventAgainstEveryStateTest {

    private static final Instant NOW = THIRTEEN.plusSeconds(5);

    /** Every state of an original, by the name the tables below use. */
    private static final Map<String, Supplier<Original>> STATES = Map.of(
            "an open hold", HoldStates::open,
            "a partly captured hold", HoldStates::partlyCaptured,
            "a finally captured hold", HoldStates::finallyCaptured,
            "an expired hold", HoldStates::expired,
            "a fully released hold", HoldStates::fullyReleased,
            "an unknown original", () -> Original.NoLedger.NOT_FOUND,
            "an original not approved", () -> Original.NoLedger.NOT_APPROVED);

    private static Stream<Arguments> reversals() {
        return Stream.of(
                arguments("an open hold", HoldVerdict.RELEASED, null, 900L),
                arguments("a partly captured hold", HoldVerdict.RELEASED, null, 900L),
                arguments("a finally captured hold", HoldVerdict.RELEASED, null, 300L),
                arguments("an expired hold", HoldVerdict.REJECTED, HoldRule.EXCEEDS_REMAINING, 0L),
                arguments("a fully released hold", HoldVerdict.REJECTED, HoldRule.EXCEEDS_REMAINING, 0L),
                arguments("an unknown original", HoldVerdict.REJECTED, HoldRule.ORIGINAL_NOT_FOUND, null),
                arguments("an original not approved", HoldVerdict.REJECTED, HoldRule.ORIGINAL_NOT_APPROVED, null));
    }

    @ParameterizedTest(name = "a reversal of 100 of {0} is {1} {2}, leaving {3} counted")
    @MethodSource("reversals")
    void aReversalIsReleasedOnlyFromWhatIsStillCountedOfAnApprovedAuthorization(
            String state, HoldVerdict verdict, HoldRule reason, Long remaining) {
        HoldOutcome outcome = HoldPolicy.reverse(stateNamed(state), 100, NOW);

        assertThat(outcome.verdict()).isEqualTo(verdict);
        assertThat(outcome.reason()).isEqualTo(reason);
        assertThat(outcome.remaining()).isEqualTo(remaining);
        assertThat(outcome.released()).isEqualTo(verdict == HoldVerdict.RELEASED ? new Tally(100, 0) : Tally.ZERO);
        assertThat(outcome.expiredFirst()).isNull();
    }

    private static Stream<Arguments> increments() {
        return Stream.of(
                arguments("an open hold", HoldVerdict.APPROVED, null),
                arguments("a partly captured hold", HoldVerdict.APPROVED, null),
                arguments("a finally captured hold", HoldVerdict.REJECTED, HoldRule.HOLD_CLOSED),
                arguments("an expired hold", HoldVerdict.REJECTED, HoldRule.HOLD_CLOSED),
                arguments("a fully released hold", HoldVerdict.REJECTED, HoldRule.HOLD_CLOSED),
                arguments("an unknown original", HoldVerdict.REJECTED, HoldRule.ORIGINAL_NOT_FOUND),
                arguments("an original not approved", HoldVerdict.REJECTED, HoldRule.ORIGINAL_NOT_APPROVED));
    }

    @ParameterizedTest(name = "an increment of 100 of {0} is {1} {2}")
    @MethodSource("increments")
    void anIncrementIsApprovedOnlyForAnOpenHold(String state, HoldVerdict verdict, HoldRule reason) {
        Original original = stateNamed(state);

        HoldOutcome outcome = HoldPolicy.increment(original, 100, NOW, null, null);

        assertThat(outcome.verdict()).isEqualTo(verdict);
        assertThat(outcome.reason()).isEqualTo(reason);
        if (verdict == HoldVerdict.APPROVED) {
            assertThat(outcome.additions()).containsExactly(new HourTally(THIRTEEN, new Tally(100, 0)));
            assertThat(((HoldLedger) outcome.after()).held()).isEqualTo(((HoldLedger) original).held() + 100);
        } else {
            assertThat(outcome.additions()).isEmpty();
            assertThat(outcome.after()).isEqualTo(original);
        }
        assertThat(outcome.releases()).isEmpty();
    }

    private static Stream<Arguments> captures() {
        // state, captured, over-captured, released by the final capture, count counted anew
        return Stream.of(
                arguments("an open hold", 100L, 0L, 900L, 0L),
                arguments("a partly captured hold", 100L, 0L, 500L, 0L),
                arguments("a finally captured hold", 0L, 100L, 0L, 0L),
                arguments("an expired hold", 0L, 100L, 0L, 1L),
                arguments("a fully released hold", 0L, 100L, 0L, 1L),
                arguments("an unknown original", 0L, 100L, 0L, 1L),
                arguments("an original not approved", 0L, 100L, 0L, 1L));
    }

    @ParameterizedTest(
            name = "a final capture of 100 of {0} captures {1}, over-captures {2}, releases {3}, counts {4} anew")
    @MethodSource("captures")
    void aCaptureIsNeverRejectedAndCountsWhatItTakesBeyondWhatIsHeld(
            String state, long captured, long overCaptured, long released, long countedAnew) {
        HoldOutcome outcome = HoldPolicy.capture(stateNamed(state), 100, true, NOW);

        assertThat(outcome.verdict()).isEqualTo(HoldVerdict.CAPTURED);
        assertThat(outcome.reason()).isNull();
        assertThat(outcome.captured()).isEqualTo(captured);
        assertThat(outcome.overCaptured()).isEqualTo(overCaptured);
        assertThat(outcome.released().amount()).isEqualTo(released);
        assertThat(outcome.released().count()).isZero();
        assertThat(outcome.added()).isEqualTo(new Tally(overCaptured, countedAnew));
        if (overCaptured > 0) {
            assertThat(outcome.additions())
                    .singleElement()
                    .extracting(HourTally::hour)
                    .isEqualTo(THIRTEEN);
        }
        if (outcome.after() instanceof HoldLedger ledger) {
            assertThat(ledger.held()).isZero();
        }
    }

    private static Stream<Arguments> expiries() {
        // state, whether it expires, what it releases
        return Stream.of(
                arguments("an open hold", true, new Tally(1_000, 1)),
                arguments("a partly captured hold", true, new Tally(600, 0)),
                arguments("a finally captured hold", false, null),
                arguments("an expired hold", false, null),
                arguments("a fully released hold", false, null),
                arguments("an unknown original", false, null),
                arguments("an original not approved", false, null));
    }

    @ParameterizedTest(name = "the expiry of {0} at its instant expires it: {1}, releasing {2}")
    @MethodSource("expiries")
    void anExpiryReleasesWhatAnOpenHoldStillHoldsAndNothingElse(String state, boolean expires, Tally released) {
        var outcome = HoldPolicy.expire(stateNamed(state), EXPIRES);

        assertThat(outcome.isPresent()).isEqualTo(expires);
        outcome.ifPresent(expiry -> {
            assertThat(expiry.verdict()).isEqualTo(HoldVerdict.EXPIRED);
            assertThat(expiry.released()).isEqualTo(released);
            assertThat(((HoldLedger) expiry.after()).status()).isEqualTo(HoldStatus.EXPIRED);
            assertThat(((HoldLedger) expiry.after()).held()).isZero();
        });
    }

    private static Original stateNamed(String name) {
        return STATES.get(name).get();
    }

    @Test
    void theTablesCoverEveryState() {
        for (Stream<Arguments> table : List.of(reversals(), increments(), captures(), expiries())) {
            assertThat(table.map(row -> (String) row.get()[0])).containsExactlyInAnyOrderElementsOf(STATES.keySet());
        }
    }
}
