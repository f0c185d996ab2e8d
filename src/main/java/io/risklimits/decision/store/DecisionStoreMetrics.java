package io.risklimits.decision.store;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.springframework.stereotype.Component;

/**
 * The lock-and-decide transaction's meters, named once so the dashboard (docs/grafana) and the code
 * cannot drift apart.
 */
@Component
public class DecisionStoreMetrics {

    private final Counter batchesDecidedAgain;
    private final DistributionSummary batchSize;
    private final Timer lockWait;
    private final Timer transactions;
    private final Timer accountLocksHeld;
    private final Counter windowStartsRemembered;
    private final Counter windowStartsRead;
    private final Counter windowStartsUnchecked;

    public DecisionStoreMetrics(MeterRegistry meters) {
        this.batchesDecidedAgain = Counter.builder("risk.decider.batch.replay.retries")
                .description("batches decided a second time, with the stored decisions read, because some of their"
                        + " events had been decided before (or, rarely, a writer outside the locks added a bucket"
                        + " the batch was about to add)")
                .register(meters);
        this.batchSize = DistributionSummary.builder("risk.decider.batch.size")
                .description("valid events decided together in one database transaction")
                .baseUnit("events")
                .publishPercentileHistogram()
                .minimumExpectedValue(1.0)
                .maximumExpectedValue(10_000.0)
                .register(meters);
        this.lockWait = Timer.builder("risk.decider.lock.wait")
                .description("time to acquire the advisory locks of one transaction's business keys and scope keys")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(100_000))
                .maximumExpectedValue(Duration.ofSeconds(30))
                .register(meters);
        this.transactions = Timer.builder("risk.decider.transaction.duration")
                .description("one lock-and-decide transaction, commit included: the valid events of a poll")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(100_000))
                .maximumExpectedValue(Duration.ofMinutes(1))
                .register(meters);
        this.accountLocksHeld = Timer.builder("risk.decider.account.locks.held")
                .description("how long a transaction held its account scope locks, from its account step (locks"
                        + " taken, accounts read) to its commit: transactions that share an account take turns"
                        + " this long")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(100_000))
                .maximumExpectedValue(Duration.ofMinutes(1))
                .register(meters);
        this.windowStartsRemembered = windowStarts(meters, "remembered");
        this.windowStartsRead = windowStarts(meters, "read");
        this.windowStartsUnchecked = windowStarts(meters, "unchecked");
    }

    private static Counter windowStarts(MeterRegistry meters, String source) {
        return Counter.builder("risk.decider.window.starts")
                .description("scope keys of a batch whose running totals before each window were remembered"
                        + " for the hour, or read from the database, or not needed (unchecked: no limit checks the"
                        + " key's usage, its latest bucket alone is read)")
                .tag("source", source)
                .register(meters);
    }

    void windowStartsFound(int remembered, int read, int unchecked) {
        windowStartsRemembered.increment(remembered);
        windowStartsRead.increment(read);
        windowStartsUnchecked.increment(unchecked);
    }

    void batchDecidedAgainForReplays() {
        batchesDecidedAgain.increment();
    }

    void batchDecided(int events) {
        batchSize.record(events);
    }

    /** A wait for locks that the database measured (locks taken in the same round trip as reads). */
    void lockWaited(Duration waited) {
        lockWait.record(waited);
    }

    /** A transaction that took account scope locks at that System.nanoTime() ended: they are released. */
    void accountLocksReleased(long takenNanos) {
        accountLocksHeld.record(System.nanoTime() - takenNanos, TimeUnit.NANOSECONDS);
    }

    <T> T timeTransaction(Supplier<T> transaction) {
        return transactions.record(transaction);
    }
}
