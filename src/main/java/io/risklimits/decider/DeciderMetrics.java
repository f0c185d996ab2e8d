package io.risklimits.decider;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.risklimits.decision.Decision;
import io.risklimits.decision.EventType;
import io.risklimits.decision.Outcome;
import io.risklimits.decision.Reason;
import io.risklimits.decision.Scope;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.store.ExpiryOutbox;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

/**
 * The decider's meters on the Kafka side, named once so the dashboard (docs/grafana) and the code
 * cannot drift apart. Tags are bounded: type, decision, reason and scope take a handful of values each.
 */
@Component
class DeciderMetrics {

    private final MeterRegistry meters;
    private final Counter dedupeHits;
    private final Timer latency;
    private final Timer publishWait;
    private final Counter releasedAmount;
    private final Counter dedupeConflicts;
    // one counter per series, found without a registry lookup, or a string built, per decision
    private final Map<DecisionSeries, Counter> decisions = new ConcurrentHashMap<>();
    // decisions under shadow limits per channel and direction, and those the shadow limits would have changed
    private final Map<String, Counter> shadowEvaluated = new ConcurrentHashMap<>();
    private final Map<String, Counter> shadowChanged = new ConcurrentHashMap<>();

    // new decisions per event currency (ISO 4217 codes: bounded), and conversions refused per reason
    private final Map<String, Counter> byCurrency = new ConcurrentHashMap<>();
    private final Map<Reason, Counter> conversionsRefused = new EnumMap<>(Reason.class);

    private final Counter holdsExpired;
    private final Counter overCapturedAmount;
    private final AtomicLong sweepLagSeconds = new AtomicLong();
    private final AtomicLong openHolds = new AtomicLong();

    DeciderMetrics(MeterRegistry meters) {
        this.meters = meters;
        // every reason registered at once, so each series exists (at 0) before the first refusal
        for (Reason reason : List.of(Reason.NO_FX_RATE, Reason.FX_RATE_STALE, Reason.CURRENCY_MISMATCH)) {
            conversionsRefused.put(
                    reason,
                    Counter.builder("risk.fx.conversions.refused")
                            .description("decisions refused because their amount could not be counted in the limit"
                                    + " currency: no rate, a stale rate, a follow-up in another currency")
                            .tag("reason", reason.name())
                            .register(meters));
        }
        this.holdsExpired = Counter.builder("risk.holds.expired")
                .description("holds this instance's sweep expired, each once")
                .register(meters);
        this.overCapturedAmount = Counter.builder("risk.holds.over.captured.amount")
                .description("amount captures counted beyond what their authorization held (minor units)")
                .baseUnit("minor_units")
                .register(meters);
        Gauge.builder("risk.holds.sweep.lag", sweepLagSeconds, AtomicLong::get)
                .description("how long ago the oldest open hold not yet expired was due, as the last sweep saw it")
                .baseUnit("seconds")
                .register(meters);
        Gauge.builder("risk.holds.open", openHolds, AtomicLong::get)
                .description(String.format(
                        Locale.ROOT,
                        "open holds, as the last sweep counted them, up to %,d (that figure: as many or more)",
                        ExpiryOutbox.OPEN_HOLDS_COUNTED_UP_TO))
                .register(meters);
        this.dedupeHits = Counter.builder("risk.decider.dedupe.hits")
                .description("events whose dedupe_id was already decided: the stored decision was published again")
                .register(meters);
        this.latency = Timer.builder("risk.decision.latency")
                .description("from the event's record timestamp to its decision confirmed on the decisions topic")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(1))
                .register(meters);
        this.releasedAmount = Counter.builder("risk.decider.released.amount")
                .description("amount given back to the limits by reversals (minor units), counted once per reversal")
                .baseUnit("minor_units")
                .register(meters);
        this.dedupeConflicts = Counter.builder("risk.decider.dedupe.conflicts")
                .description("events that reused a decided dedupe_id with other content: answered with the stored"
                        + " decision and dead-lettered")
                .register(meters);
        this.publishWait = Timer.builder("risk.decider.publish.wait")
                .description(
                        "from a poll's last decision handed to the producer until the broker has confirmed them all")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(100_000))
                .maximumExpectedValue(Duration.ofMinutes(1))
                .register(meters);
    }

    /** Counts a decision message confirmed by the broker. */
    void published(Decision decision, long recordTimestampMillis) {
        decisions
                .computeIfAbsent(
                        new DecisionSeries(
                                decision.fields().type(), decision.verdict(), decision.reason(), decision.replayed()),
                        this::decisionsCounter)
                .increment();
        if (!decision.replayed()) {
            countCurrency(decision);
        }
        if (decision.replayed()) {
            dedupeHits.increment();
        } else if (decision.released() != null) {
            releasedAmount.increment(decision.released().amount());
        }
        if (!decision.dedupeConflict().isEmpty()) {
            dedupeConflicts.increment();
        }
        if (!decision.replayed() && decision.overCaptured() != null) {
            overCapturedAmount.increment(decision.overCaptured());
        }
        if (decision.shadow() != null && !decision.replayed()) {
            countShadow(decision);
        }
        if (recordTimestampMillis > 0) {
            latency.record(Duration.ofMillis(Math.max(0, System.currentTimeMillis() - recordTimestampMillis)));
        }
    }

    // the tags of risk.decisions: the decision's type (null when unreadable), verdict, reason and replay
    private record DecisionSeries(EventType type, Verdict verdict, Reason reason, boolean replayed) {}

    private Counter decisionsCounter(DecisionSeries series) {
        return Counter.builder("risk.decisions")
                .description("decision messages confirmed on the decisions topic")
                .tag("type", series.type() == null ? "none" : series.type().name())
                .tag("decision", series.verdict().name())
                .tag(
                        "reason",
                        series.reason() == null ? "none" : series.reason().name())
                .tag("scope", scopeOf(series.reason()))
                .tag("replayed", Boolean.toString(series.replayed()))
                .register(meters);
    }

    private void countCurrency(Decision decision) {
        String currency = decision.fields().currency() == null
                ? "none"
                : decision.fields().currency();
        byCurrency
                .computeIfAbsent(
                        currency,
                        code -> Counter.builder("risk.decisions.by.currency")
                                .description("decisions made (not replays), by the event's currency")
                                .tag("currency", code)
                                .register(meters))
                .increment();
        Counter refused = decision.reason() == null ? null : conversionsRefused.get(decision.reason());
        if (refused != null) {
            refused.increment();
        }
    }

    /** Counts holds expired by this instance's sweep. */
    void holdsExpired(int expired) {
        holdsExpired.increment(expired);
    }

    /** What the last sweep saw: its lag behind the oldest due hold, and the open holds. */
    void sweepSaw(double lagSeconds, long open) {
        sweepLagSeconds.set(Math.round(lagSeconds));
        openHolds.set(open);
    }

    /**
     * The scope whose limit a rejection is for, as its reason names it (LIMIT_... the key's,
     * ENTITY_LIMIT_... the entity's, ...); "none" for a decision no limit rejected.
     */
    private static String scopeOf(Reason reason) {
        if (reason == null) {
            return "none";
        }
        for (Scope scope : Scope.values()) {
            String prefix = scope == Scope.KEY ? "LIMIT_" : scope.name() + "_LIMIT_";
            if (reason.name().startsWith(prefix)) {
                return scope.label();
            }
        }
        return "none";
    }

    // channel_direction: the business key's; reason: the shadow limits' reason when they would reject,
    // else the enforced reason they would have lifted
    private void countShadow(Decision decision) {
        String channelDirection =
                decision.fields().channel() + "/" + decision.fields().direction();
        shadowEvaluated
                .computeIfAbsent(
                        channelDirection,
                        tags -> Counter.builder("risk.decider.shadow.evaluated")
                                .description("authorizations decided under shadow limits, per channel and direction")
                                .tag("channel_direction", channelDirection)
                                .register(meters))
                .increment();
        Outcome shadow = decision.shadow();
        if (shadow.verdict() == decision.verdict()) {
            return;
        }
        String change = shadow.isApproved() ? "rejected_to_approved" : "approved_to_rejected";
        String reason = (shadow.isApproved() ? decision.reason() : shadow.reason()).name();
        shadowChanged
                .computeIfAbsent(
                        channelDirection + "/" + change + "/" + reason,
                        tags -> Counter.builder("risk.decider.shadow.changed")
                                .description("authorizations the shadow limits would have decided otherwise")
                                .tag("channel_direction", channelDirection)
                                .tag("change", change)
                                .tag("reason", reason)
                                .register(meters))
                .increment();
    }

    void timePublishWait(Runnable waiting) {
        publishWait.record(waiting);
    }
}
