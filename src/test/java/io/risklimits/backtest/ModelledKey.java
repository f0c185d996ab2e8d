package io.risklimits.backtest;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Limit;
import io.risklimits.decision.Limits;
import io.risklimits.decision.ReferenceModel;
import io.risklimits.decision.Window;
import io.risklimits.limits.LimitRow;
import io.risklimits.limits.LimitTable;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The live decider of one key, as the {@link ReferenceModel} decides, for generated history: each event
 * decided in turn against the limit rows that match the key, usage recomputed for each from what the
 * model counted, calendar windows in the zone.
 */
final class ModelledKey {

    private final String key;
    private final ReferenceModel model;
    private final Map<String, ReferenceModel.Cap> caps;

    ModelledKey(BusinessKey key, List<LimitRow> limitRows, ZoneId zone) {
        this.key = key.toString();
        this.model = new ReferenceModel(zone);
        this.caps = caps(new LimitTable(limitRows).limitsFor(key));
    }

    /** Decides the event as the live decider would, and writes the outcome on it as its stored one. */
    void decideAndStore(HistoryEvent event) {
        ReferenceModel.Expected expected = decide(event);
        event.decision = expected.decision();
        event.reason = expected.reason();
        if (expected.released() != null) {
            event.releasedAmount = expected.released()[0];
            event.releasedCount = (int) expected.released()[1];
        }
        event.remaining = expected.remaining();
    }

    /**
     * Decides the event again, its stored outcome untouched; returns the decision and the reason (null
     * when approved or released).
     */
    String[] decideAgain(HistoryEvent event) {
        ReferenceModel.Expected expected = decide(event);
        return new String[] {expected.decision(), expected.reason()};
    }

    /** Applies the event's stored outcome, as a backtest does for events before its period. */
    void applyStored(HistoryEvent event) {
        String dedupeId = event.dedupeId.toString();
        switch (event.kind) {
            case INVALID -> model.invalid(key, dedupeId);
            case AUTHORIZATION -> model.storedAuthorization(key, dedupeId, event.amount, event.bucket, event.decision);
            case REVERSAL -> {
                long count = model.storedReversal(
                        key,
                        dedupeId,
                        event.reverses.toString(),
                        event.releasedAmount == null ? 0 : event.releasedAmount,
                        event.decision);
                if (event.decision.equals("RELEASED") && count != event.releasedCount) {
                    throw new IllegalStateException("the stored release of " + dedupeId + " counts "
                            + event.releasedCount + ", the model's " + count);
                }
            }
        }
    }

    private ReferenceModel.Expected decide(HistoryEvent event) {
        String dedupeId = event.dedupeId.toString();
        return switch (event.kind) {
            case INVALID -> model.invalid(key, dedupeId);
            case AUTHORIZATION -> model.decide(key, dedupeId, event.amount, event.bucket, caps);
            case REVERSAL -> model.reverse(key, dedupeId, event.reverses.toString(), event.amount, event.bucket);
        };
    }

    /** The windows in force for the key, as the model's caps: a window without a maximum has the long range. */
    private static Map<String, ReferenceModel.Cap> caps(Limits limits) {
        Map<String, ReferenceModel.Cap> caps = new HashMap<>();
        for (Window window : Window.values()) {
            if (limits.inForce(window)) {
                Limit limit = limits.of(window);
                caps.put(
                        window.label(),
                        new ReferenceModel.Cap(
                                limit.maxAmount() == null ? Long.MAX_VALUE : limit.maxAmount(),
                                limit.maxCount() == null ? Long.MAX_VALUE : limit.maxCount()));
            }
        }
        return caps;
    }
}
