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
import java.util.SortedMap;
import java.util.TreeMap;
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
 * order. So the two callers meet on the same keys no more than the consumers do. The batches are as
 * the service's decider takes a backlog ({@link #batchesByPartition}): each of one partition's events,
 * of the size the decider took in the end-to-end phase, so a batch repeats its keys as often.
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
        List<SortedMap<Integer, List<TransactionEvent>>> byCaller = new ArrayList<>();
        assigned.forEach(partitionsOfCaller -> byCaller.add(new TreeMap<>()));
        for (EventStream.Event event : events) {
            int partition = Utils.toPositive(Utils.murmur2(event.recordKey())) % partitions;
            int caller = callerOf(assigned, partition);
            if (!(reader.read(event.payload()) instanceof ReadResult.Valid valid)) {
                throw new IllegalStateException("the benchmark's event " + event.dedupeId() + " is not valid");
            }
            byCaller.get(caller)
                    .computeIfAbsent(partition, ofPartition -> new ArrayList<>())
                    .add(valid.event());
        }
        List<List<List<TransactionEvent>>> batches = byCaller.stream()
                .map(callerEvents -> batchesByPartition(callerEvents, batchSize))
                .toList();
        return new Prepared(batches, events.size(), batchSize);
    }

    /**
     * One caller's batches, as its consumer polls a backlog: each batch of one partition's events, the
     * next of them in stream order, and the partitions in turn. A consumer behind on its partitions fetches
     * up to a megabyte of each (max.partition.fetch.bytes), thousands of events, and a poll returns the
     * records of one partition's fetch before the next one's. So a batch of the decider's holds the
     * events of one partition's keys, not of all its partitions' keys, and meets each of them more often:
     * fewer keys' usage read and buckets written per decision.
     */
    static <T> List<List<T>> batchesByPartition(SortedMap<Integer, List<T>> eventsByPartition, int batchSize) {
        List<List<T>> batches = new ArrayList<>();
        List<Integer> partitionsLeft = new ArrayList<>(eventsByPartition.keySet());
        for (int from = 0; !partitionsLeft.isEmpty(); from += batchSize) {
            int start = from;
            partitionsLeft.removeIf(
                    partition -> eventsByPartition.get(partition).size() <= start);
            for (int partition : partitionsLeft) {
                List<T> events = eventsByPartition.get(partition);
                batches.add(List.copyOf(events.subList(start, Math.min(events.size(), start + batchSize))));
            }
        }
        return batches;
    }

    private static int callerOf(List<Set<Integer>> assigned, int partition) {
        for (int caller = 0; caller < assigned.size(); caller++) {
            if (assigned.get(caller).contains(partition)) {
                return caller;
            }
        }
        throw new IllegalStateException("partition " + partition + " is assigned to no consumer: " + assigned);
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
