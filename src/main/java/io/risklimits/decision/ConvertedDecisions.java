package io.risklimits.decision;

import java.time.Instant;
import java.util.List;

/**
 * The decisions of events in another currency than the limit currency: decided and reported with what
 * they count in the limit currency ({@link FxPolicy}), their conversion carried as counted_amount and fx.
 */
public final class ConvertedDecisions {

    private ConvertedDecisions() {}

    /**
     * An authorization that counts counted (its amount, converted when its currency is not the limit
     * currency), decided against the limits now at every scope it counts at; a refused conversion is the
     * outcome of the shadow sets too.
     */
    public static Decision limitChecked(
            TransactionEvent event,
            FxPolicy.Counted counted,
            Outcome outcome,
            List<ScopeCheck> checks,
            Instant bucketTs,
            Instant decidedAt) {
        Decision decision = Decision.limitChecked(event, outcome, checks, bucketTs, decidedAt);
        if (counted.conversion() == null && !counted.isRefused()) {
            return decision;
        }
        Outcome shadow = LimitPolicy.decideShadow(counted.amount(), checks);
        return with(decision, shadow != null && counted.isRefused() ? outcome : shadow, counted.conversion());
    }

    /** A follow-up decided with its amount as converted at its original's rate; as it is without one. */
    public static Decision followUp(Decision decision, Conversion conversion) {
        return conversion == null ? decision : with(decision, decision.shadow(), conversion);
    }

    private static Decision with(Decision decision, Outcome shadow, Conversion conversion) {
        return new Decision(
                decision.dedupeId(),
                decision.fields(),
                decision.verdict(),
                decision.reason(),
                decision.errors(),
                decision.usage(),
                decision.limits(),
                decision.bucketTs(),
                decision.decidedAt(),
                decision.released(),
                decision.remaining(),
                decision.dedupeConflict(),
                shadow,
                decision.scopes(),
                decision.holdExpiresAt(),
                decision.captured(),
                decision.overCaptured(),
                conversion,
                decision.replayed(),
                null);
    }
}
