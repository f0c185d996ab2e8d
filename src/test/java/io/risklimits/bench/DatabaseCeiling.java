package io.risklimits.bench;

import io.risklimits.decision.Decision;
import io.risklimits.decision.ReadResult;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.TransactionEventReader;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.store.BatchDecisionStore;
import io.risklimits.limits.LimitCatalog;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.utils.Utils;

/**
 * The database-side ceiling of the service's design on this machine: the production batched decision
 * statements ({@link BatchDecisionStore#decideAll}, from the batched service's own context, its
 * listener paused) driven directly, with no Kafka and no JSON. The events are those of the
 * end-to-end phase (the same stream, fresh dedupe ids), read into events before the clock starts;
 * they go to as many callers as the service has consumer threads, each event to the caller whose
 * consumer holds its partition (Kafka's default partitioner: murmur2 of the record key), in stream
 * order, and in batches of the size the service's decider took in the end-to-end phase. So the two
 * callers meet on the same keys no more than the consumers do.
 */
final class DatabaseCeiling {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final ServiceUnderTest service;
    private final int partitions;

    DatabaseCeiling(ServiceUnderTest service, int partitions) {
        this.service = service;
        this.partitions = partitions;
    }

    /** The batches of each caller, built from the events before anything is measured. */
    record Prepared(List<List<List<TransactionEvent>>> batchesByCaller, int events, int batchSize) {}

    Prepared prepare(List<EventStream.Event> events, int batchSize) {
        TransactionEventReader reader = service.bean(TransactionEventReader.class);
        List<Set<Integer>> assigned = service.assignedPartitions();
        List<List<TransactionEvent>> byCaller = new ArrayList<>();
        assigned.forEach(partitionsOfCaller -> byCaller.add(new ArrayList<>()));
        for (EventStream.Event event : events) {
            int partition = Utils.toPositive(Utils.murmur2(event.recordKey())) % partitions;
            int caller = callerOf(assigned, partition);
            if (!(reader.read(event.payload()) instanceof ReadResult.Valid valid)) {
                throw new IllegalStateException("the benchmark's event " + event.dedupeId() + " is not valid");
            }
            byCaller.get(caller).add(valid.event());
        }
        List<List<List<TransactionEvent>>> batches = byCaller.stream()
                .map(callerEvents -> chunks(callerEvents, batchSize))
                .toList();
        return new Prepared(batches, events.size(), batchSize);
    }

    private static int callerOf(List<Set<Integer>> assigned, int partition) {
        for (int caller = 0; caller < assigned.size(); caller++) {
            if (assigned.get(caller).contains(partition)) {
                return caller;
            }
        }
        throw new IllegalStateException("partition " + partition + " is assigned to no consumer: " + assigned);
    }

    private static List<List<TransactionEvent>> chunks(List<TransactionEvent> events, int size) {
        List<List<TransactionEvent>> chunks = new ArrayList<>();
        for (int from = 0; from < events.size(); from += size) {
            chunks.add(List.copyOf(events.subList(from, Math.min(events.size(), from + size))));
        }
        return chunks;
    }

    /**
     * What the callers decided, and in how long: from the moment they start to the last commit; with the
     * CPU time the callers' threads took meanwhile.
     */
    record Decided(int decisions, int approved, long elapsedNanos, long callersCpuNanos) {

        double decisionsPerSecond() {
            return decisions * 1e9 / elapsedNanos;
        }
    }

    /** Decides the prepared batches, each caller on a thread of its own, all starting together. */
    Decided decide(Prepared prepared) {
        BatchDecisionStore store = service.bean(BatchDecisionStore.class);
        LimitCatalog limits = service.bean(LimitCatalog.class);
        int callers = prepared.batchesByCaller().size();
        CountDownLatch ready = new CountDownLatch(callers);
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger decisions = new AtomicInteger();
        AtomicInteger approved = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong callersCpuNanos = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int caller = 0; caller < callers; caller++) {
            List<List<TransactionEvent>> batches = prepared.batchesByCaller().get(caller);
            Thread thread = new Thread(
                    () -> {
                        ready.countDown();
                        try {
                            start.await();
                            long cpuBefore = THREADS.getCurrentThreadCpuTime();
                            for (List<TransactionEvent> batch : batches) {
                                List<Decision> decided = store.decideAll(batch, limits.snapshot());
                                decisions.addAndGet(decided.size());
                                approved.addAndGet((int) decided.stream()
                                        .filter(decision -> decision.verdict() == Verdict.APPROVED)
                                        .count());
                            }
                            callersCpuNanos.addAndGet(THREADS.getCurrentThreadCpuTime() - cpuBefore);
                        } catch (Throwable failed) {
                            failure.compareAndSet(null, failed);
                        }
                    },
                    "ceiling-caller-" + caller);
            threads.add(thread);
            thread.start();
        }
        awaitQuietly(ready);
        long startedNanos = System.nanoTime();
        start.countDown();
        threads.forEach(DatabaseCeiling::joinQuietly);
        long elapsedNanos = System.nanoTime() - startedNanos;
        Optional.ofNullable(failure.get()).ifPresent(failed -> {
            throw new IllegalStateException("a ceiling caller failed", failed);
        });
        if (decisions.get() != prepared.events()) {
            throw new IllegalStateException(
                    "the ceiling decided " + decisions.get() + " of " + prepared.events() + " events");
        }
        return new Decided(decisions.get(), approved.get(), elapsedNanos, callersCpuNanos.get());
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void joinQuietly(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
