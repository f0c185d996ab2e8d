package io.risklimits.decision.hold;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

/**
 * Ledgers in every state a hold can be in, each reached through the policy from a hold of 1,000
 * authorized at {@link #AUTHORIZED} and expiring at {@link #EXPIRES}.
 */
final class HoldStates {

    static final Instant AUTHORIZED = Instant.parse("2026-11-25T10:15:00Z");
    static final Instant EXPIRES = AUTHORIZED.plus(Duration.ofDays(7));
    static final Instant TEN = Instant.parse("2026-11-25T10:00:00Z");
    static final Instant ELEVEN = TEN.plus(Duration.ofHours(1));
    static final Instant TWELVE = TEN.plus(Duration.ofHours(2));
    static final Instant THIRTEEN = TEN.plus(Duration.ofHours(3));
    static final Instant FIFTEEN = TEN.plus(Duration.ofHours(5));

    private HoldStates() {}

    /** 1,000 held, nothing captured. */
    static HoldLedger open() {
        return HoldLedger.hold(1_000, AUTHORIZED, EXPIRES);
    }

    /** 400 captured at eleven by a non-final capture, 600 still held. */
    static HoldLedger partlyCaptured() {
        return ledgerOf(HoldPolicy.capture(open(), 400, false, ELEVEN.plusSeconds(60)));
    }

    /** 400 captured at eleven by a final capture, the other 600 released: 400 still counted. */
    static HoldLedger finallyCaptured() {
        return ledgerOf(HoldPolicy.capture(open(), 400, true, ELEVEN.plusSeconds(60)));
    }

    /** Expired with nothing captured: nothing counted any more. */
    static HoldLedger expired() {
        return ledgerOf(HoldPolicy.expire(open(), EXPIRES).orElseThrow());
    }

    /** Reversed in full at eleven: nothing counted any more. */
    static HoldLedger fullyReleased() {
        return ledgerOf(HoldPolicy.reverse(open(), 1_000, ELEVEN.plusSeconds(60)));
    }

    /** 1,000 authorized at ten, increments of 200 at twelve and of 300 at fifteen: 1,500 held over three hours. */
    static HoldLedger overThreeHours() {
        HoldLedger atTwelve = ledgerOf(HoldPolicy.increment(open(), 200, TWELVE.plusSeconds(1), null, null));
        return ledgerOf(HoldPolicy.increment(atTwelve, 300, FIFTEEN.plusSeconds(59 * 60), null, null));
    }

    static HoldLedger ledgerOf(HoldOutcome outcome) {
        assertThat(outcome.after()).isInstanceOf(HoldLedger.class);
        return (HoldLedger) outcome.after();
    }
}
