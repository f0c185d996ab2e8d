package io.risklimits.decision;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.springframework.stereotype.Component;

/**
 * The decider's meters, named once so the dashboard (docs/grafana) and the code cannot drift apart.
 * Tags are bounded: decision, reason and mode take a handful of values each.
 */
@Component
class DeciderMetrics {

    private final MeterRegistry meters;
    private final Counter dedupeHits;
    private final Counter batchesDecidedAgain;
    private final Timer latency;
    private final DistributionSummary batchSize;
    private final Timer lockWait;
    private final Timer transactions;
    private final Timer publishWait;
    private final Counter windowStartsRemembered;
    private final Counter windowStartsRead;
    // one counter per (decision, reason, replayed), found without a registry lookup per decision
    private final Map<String, Counter> decisions = new ConcurrentHashMap<>();

    DeciderMetrics(MeterRegistry meters) {
        this.meters = meters;
        this.dedupeHits = Counter.builder("risk.decider.dedupe.hits")
                .description("events whose dedupe_id was already decided: the stored decision was published again")
                .register(meters);
        this.batchesDecidedAgain = Counter.builder("risk.decider.batch.replay.retries")
                .description("batches decided a second time, with the stored decisions read, because some of their"
                        + " events had been decided before (batched mode)")
                .register(meters);
        this.latency = Timer.builder("risk.decision.latency")
                .description("from the event's record timestamp to its decision confirmed on the decisions topic")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(1))
                .register(meters);
        this.batchSize = DistributionSummary.builder("risk.decider.batch.size")
                .description("valid events decided together in one database transaction (batched mode)")
                .baseUnit("events")
                .publishPercentileHistogram()
                .minimumExpectedValue(1.0)
                .maximumExpectedValue(10_000.0)
                .register(meters);
        this.lockWait = Timer.builder("risk.decider.lock.wait")
                .description("time to acquire the business keys' advisory locks of one transaction")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(100_000))
                .maximumExpectedValue(Duration.ofSeconds(30))
                .register(meters);
        this.transactions = Timer.builder("risk.decider.transaction.duration")
                .description("one lock-and-decide transaction, commit included: a poll's valid events in batched"
                        + " mode, one event in per-event mode")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(100_000))
                .maximumExpectedValue(Duration.ofMinutes(1))
                .register(meters);
        this.publishWait = Timer.builder("risk.decider.publish.wait")
                .description(
                        "from a poll's last decision handed to the producer until the broker has confirmed them all")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(100_000))
                .maximumExpectedValue(Duration.ofMinutes(1))
                .register(meters);
        this.windowStartsRemembered = windowStarts("remembered");
        this.windowStartsRead = windowStarts("read");
    }

    private Counter windowStarts(String source) {
        return Counter.builder("risk.decider.window.starts")
                .description("business keys of a batch whose running totals before each window were remembered"
                        + " for the hour, or read from the database (batched mode)")
                .tag("source", source)
                .register(meters);
    }

    /** Counts a decision message confirmed by the broker. */
    void published(Decision decision, long recordTimestampMillis) {
        String reason = decision.reason() == null ? "none" : decision.reason().name();
        decisions
                .computeIfAbsent(
                        decision.verdict() + "/" + reason + "/" + decision.replayed(),
                        tags -> Counter.builder("risk.decisions")
                                .description("decision messages confirmed on the decisions topic")
                                .tag("decision", decision.verdict().name())
                                .tag("reason", reason)
                                .tag("replayed", Boolean.toString(decision.replayed()))
                                .register(meters))
                .increment();
        if (decision.replayed()) {
            dedupeHits.increment();
        }
        if (recordTimestampMillis > 0) {
            latency.record(Duration.ofMillis(Math.max(0, System.currentTimeMillis() - recordTimestampMillis)));
        }
    }

    void windowStartsFound(int remembered, int read) {
        windowStartsRemembered.increment(remembered);
        windowStartsRead.increment(read);
    }

    void batchDecidedAgainForReplays() {
        batchesDecidedAgain.increment();
    }

    void batchDecided(int events) {
        batchSize.record(events);
    }

    void timeLocking(Runnable locking) {
        lockWait.record(locking);
    }

    /** A wait for locks that the database measured (locks taken in the same round trip as reads). */
    void lockWaited(Duration waited) {
        lockWait.record(waited);
    }

    <T> T timeTransaction(Supplier<T> transaction) {
        return transactions.record(transaction);
    }

    void timePublishWait(Runnable waiting) {
        publishWait.record(waiting);
    }
}
