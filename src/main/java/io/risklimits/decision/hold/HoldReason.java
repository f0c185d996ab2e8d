package io.risklimits.decision.hold;

import io.risklimits.decision.Reason;
import java.util.Objects;

/** Why a hold's decision is REJECTED: a rule of the hold, or a limit the caller found exceeded. */
public sealed interface HoldReason permits HoldReason.HoldRule, HoldReason.LimitExceeded {

    /** The value of the decision's reason field. */
    String code();

    /** A rule of the hold itself; each name is the reason it is published as. */
    enum HoldRule implements HoldReason {
        /** The named original is unknown under the business key, or past retention. */
        ORIGINAL_NOT_FOUND,
        /** The named original is not an approved authorization (for an increment: not an approved hold). */
        ORIGINAL_NOT_APPROVED,
        /** A reversal asks to release more than is still counted of its original. */
        EXCEEDS_REMAINING,
        /** An increment names a hold that expired, was fully released or was finally captured. */
        HOLD_CLOSED,
        /** A follow-up is not in its original's currency. */
        CURRENCY_MISMATCH,
        /** A capture without an approved authorization is in a currency without a rate. */
        NO_FX_RATE,
        /** A capture without an approved authorization is in a currency whose latest rate is stale. */
        FX_RATE_STALE;

        @Override
        public String code() {
            return name();
        }
    }

    /** The first limit, as the caller's limit check found it, that an admissible increment would exceed. */
    record LimitExceeded(Reason limit) implements HoldReason {

        public LimitExceeded {
            Objects.requireNonNull(limit, "limit");
        }

        @Override
        public String code() {
            return limit.name();
        }
    }
}
