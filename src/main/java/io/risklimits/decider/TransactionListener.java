package io.risklimits.decider;

import io.risklimits.decision.Decision;
import io.risklimits.decision.ReadResult;
import io.risklimits.decision.TransactionEventReader;
import io.risklimits.kafka.KafkaErrorProperties;
import io.risklimits.shared.ConditionalOnRole;
import io.risklimits.shared.Failpoints;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.stereotype.Component;

/**
 * Consumes a poll of transaction events, reads each record once, decides them (those filed under a
 * business key together and in poll order, {@link BatchDecider}; the rest one by one, {@link
 * RecordDecider}, from the same reading), publishes the decisions in poll order and returns only
 * when every resulting send is confirmed: the container commits the poll's offsets after this returns, so an
 * offset never moves past a decision that is not on the decisions topic. On a failure the records
 * before the failing one are committed, and the failing one is handed to the error policy
 * (io.risklimits.kafka.ListenerErrorPolicy) with everything after it.
 */
@Component
@ConditionalOnRole("decider")
class TransactionListener {

    private final TransactionEventReader reader;
    private final RecordDecider decider;
    private final BatchDecider batchDecider;
    private final KafkaErrorProperties kafkaErrors;
    private final Failpoints failpoints;
    private final DeciderMetrics metrics;

    TransactionListener(
            TransactionEventReader reader,
            RecordDecider decider,
            BatchDecider batchDecider,
            KafkaErrorProperties kafkaErrors,
            Failpoints failpoints,
            DeciderMetrics metrics) {
        this.reader = reader;
        this.decider = decider;
        this.batchDecider = batchDecider;
        this.kafkaErrors = kafkaErrors;
        this.failpoints = failpoints;
        this.metrics = metrics;
    }

    // settings from the bound properties records, which @ConfigurationPropertiesScan names prefix-class
    @KafkaListener(
            id = "risk-decider",
            topics = "#{@'risk.topics-io.risklimits.kafka.TopicProperties'.transactions()}",
            groupId = "#{@'risk.decider-io.risklimits.decider.DeciderProperties'.groupId()}",
            concurrency = "#{@'risk.decider-io.risklimits.decider.DeciderProperties'.concurrency()}",
            containerFactory = "deciderContainerFactory")
    void onPoll(List<ConsumerRecord<byte[], byte[]>> records) {
        // one reading per record, carried to its answer: the reader's rules depend on the clock
        List<ReadResult> reads = new ArrayList<>(records.size());
        records.forEach(record -> reads.add(reader.read(record.value())));
        Map<Integer, Decision> decidedTogether = decideTogether(records, reads);
        failpoints.reached(Failpoints.Point.AFTER_COMMIT);
        List<CompletableFuture<?>> sends = new ArrayList<>(records.size());
        for (int i = 0; i < records.size(); i++) {
            ConsumerRecord<byte[], byte[]> record = records.get(i);
            Decision decided = decidedTogether.get(i);
            try {
                sends.add(
                        decided != null
                                ? decider.publish(record, reads.get(i), decided)
                                : decider.decide(record, reads.get(i)));
            } catch (RuntimeException failure) {
                awaitSends(records, sends);
                throw new BatchListenerFailedException("Deciding failed", failure, record);
            }
        }
        metrics.timePublishWait(() -> awaitSends(records, sends));
        failpoints.reached(Failpoints.Point.AFTER_SEND);
    }

    private Map<Integer, Decision> decideTogether(
            List<ConsumerRecord<byte[], byte[]>> records, List<ReadResult> reads) {
        try {
            return batchDecider.decideInOrder(records, reads);
        } catch (RuntimeException failure) {
            // named by its first record, the whole poll is retried by the error policy; a plain
            // exception would send the batch to the fallback handler, which dead-letters all of it
            throw new BatchListenerFailedException("Deciding the poll failed", failure, records.get(0));
        }
    }

    /** Waits for the sends of records.get(0 .. sends.size() - 1); throws for the first that failed. */
    private void awaitSends(List<ConsumerRecord<byte[], byte[]>> records, List<CompletableFuture<?>> sends) {
        long deadline = System.nanoTime() + kafkaErrors.sendTimeout().toNanos();
        for (int i = 0; i < sends.size(); i++) {
            try {
                sends.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (ExecutionException | TimeoutException failure) {
                Throwable cause = failure instanceof ExecutionException ? failure.getCause() : failure;
                throw new BatchListenerFailedException("Sending the decision failed", cause, records.get(i));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new BatchListenerFailedException("Interrupted while sending", interrupted, records.get(i));
            }
        }
    }
}
