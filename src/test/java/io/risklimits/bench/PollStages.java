package io.risklimits.bench;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/**
 * The decider's own meters at one moment: its transactions, the events they decided (batched mode)
 * and its waits for the broker's confirmations. Between two readings they say how large the polls
 * were and where a poll's time went, which is what separates a throughput phase (full polls) from a
 * latency phase (small ones) in the same run.
 */
record PollStages(
        long transactions,
        double transactionNanos,
        double batchedEvents,
        long publishWaits,
        double publishWaitNanos,
        double decidedAgain,
        double startsRead,
        double startsRemembered,
        long accountLockHolds,
        double accountLocksHeldNanos) {

    static PollStages of(MeterRegistry meters) {
        Timer transactions = meters.get("risk.decider.transaction.duration").timer();
        Timer publishWait = meters.get("risk.decider.publish.wait").timer();
        DistributionSummary batchSize = meters.get("risk.decider.batch.size").summary();
        Timer accountLocksHeld = meters.find("risk.decider.account.locks.held").timer();
        return new PollStages(
                transactions.count(),
                transactions.totalTime(TimeUnit.NANOSECONDS),
                batchSize.totalAmount(),
                publishWait.count(),
                publishWait.totalTime(TimeUnit.NANOSECONDS),
                count(meters, "risk.decider.batch.replay.retries"),
                count(meters, "risk.decider.window.starts", "source", "read"),
                count(meters, "risk.decider.window.starts", "source", "remembered"),
                accountLocksHeld == null ? 0 : accountLocksHeld.count(),
                accountLocksHeld == null ? 0 : accountLocksHeld.totalTime(TimeUnit.NANOSECONDS));
    }

    private static double count(MeterRegistry meters, String name, String... tags) {
        Counter counter = meters.find(name).tags(tags).counter();
        return counter == null ? 0 : counter.count();
    }

    /** Events per transaction since that reading; 1 where no batch sizes were recorded (the baseline). */
    double eventsPerTransactionSince(PollStages earlier) {
        long transactions = this.transactions - earlier.transactions;
        double events = batchedEvents - earlier.batchedEvents;
        return events == 0 ? 1.0 : events / Math.max(1, transactions);
    }

    /**
     * "2,917 transactions of 25.7 events, 2.9 ms each; publish wait 1.9 ms per poll; ..." since that reading,
     * with how long the transactions that counted at accounts held their locks.
     */
    String since(PollStages earlier) {
        long transactions = this.transactions - earlier.transactions;
        long waits = this.publishWaits - earlier.publishWaits;
        double events = batchedEvents - earlier.batchedEvents;
        long holds = accountLockHolds - earlier.accountLockHolds;
        String accounts = holds == 0
                ? ""
                : String.format(
                        "; account locks held %.1f ms by each of %,d transactions",
                        (accountLocksHeldNanos - earlier.accountLocksHeldNanos) / 1e6 / holds, holds);
        return String.format(
                "%,d transactions of %.1f events, %.1f ms each; publish wait %.1f ms per poll; %,.0f batches"
                        + " decided again; scope keys' window starts read %,.0f, remembered %,.0f%s",
                transactions,
                events == 0 ? 1.0 : events / Math.max(1, transactions), // per-event mode records no batch sizes
                (transactionNanos - earlier.transactionNanos) / 1e6 / Math.max(1, transactions),
                (publishWaitNanos - earlier.publishWaitNanos) / 1e6 / Math.max(1, waits),
                decidedAgain - earlier.decidedAgain,
                startsRead - earlier.startsRead,
                startsRemembered - earlier.startsRemembered,
                accounts);
    }
}
