package io.risklimits.decision.store;

import io.risklimits.decision.Conversion;
import io.risklimits.decision.EventType;
import io.risklimits.decision.FxPolicy;
import io.risklimits.decision.Reason;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.hold.HoldLedger;
import io.risklimits.decision.hold.HoldPolicy;
import java.time.Instant;

/**
 * The one place where an event's amount becomes the amount counted in the limit currency, for everything
 * the batch then counts, releases and files (buckets, running totals, ledger parts, released sums): an
 * authorization's converted at the latest rate at the decision ({@link FxPolicy#count}); a follow-up of an
 * approved original, which must be in the original's currency, at the rate the original was counted at,
 * judged against what is left of the original in its own currency ({@link FxPolicy#followUpAmount}), as
 * the follow-up finds it (a hold due at the decision expired first); a capture without an approved
 * authorization counted anew like an authorization; any other follow-up releases and counts nothing, its
 * amount as it is.
 */
final class CountedAmounts {

    private final FxPolicy fx;
    private final Instant decidedAt;

    CountedAmounts(FxPolicy fx, Instant decidedAt) {
        this.fx = fx;
        this.decidedAt = decidedAt;
    }

    FxPolicy.Counted ofAuthorization(TransactionEvent event) {
        return fx.count(event.amount(), event.currency(), decidedAt);
    }

    FxPolicy.Counted ofFollowUp(TransactionEvent event, StoredOriginal stored) {
        HoldLedger ledger = stored == null ? null : stored.ledger();
        if (ledger == null) {
            return event.type() == EventType.CAPTURE
                    ? ofAuthorization(event)
                    : new FxPolicy.Counted(event.amount(), null, null);
        }
        if (!event.currency().equals(stored.currency())) {
            return new FxPolicy.Counted(0, null, Reason.CURRENCY_MISMATCH);
        }
        Conversion rate = stored.conversion();
        if (rate == null) {
            return new FxPolicy.Counted(event.amount(), null, null);
        }
        HoldLedger current = HoldPolicy.expire(ledger, decidedAt)
                .map(expiry -> (HoldLedger) expiry.after())
                .orElse(ledger);
        long amount = current.own() == null
                // a ledger filed without own-currency figures
                ? fx.followUpAmountInLimitCurrency(
                        event.type(), event.amount(), event.currency(), rate, current.counted(), current.held())
                : fx.followUpAmount(
                        event.type(),
                        event.amount(),
                        event.currency(),
                        rate,
                        new FxPolicy.Remaining(
                                current.counted(), current.held(), current.ownCounted(), current.ownHeld()));
        return new FxPolicy.Counted(amount, rate.counting(amount), null);
    }
}
