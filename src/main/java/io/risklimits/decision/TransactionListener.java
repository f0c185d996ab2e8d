package io.risklimits.decision;

import io.risklimits.ConditionalOnRole;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.stereotype.Component;

/**
 * Consumes a poll of transaction events, decides each in order and returns only when every
 * resulting send is confirmed: the container commits the poll's offsets after this returns, so an
 * offset never moves past a decision that is not on the decisions topic. On a failure the records
 * before the failing one are committed, and the failing one is handed to the error policy
 * (io.risklimits.kafka.DeciderListenerConfiguration) with everything after it.
 */
@Component
@ConditionalOnRole("decider")
class TransactionListener {

    private final RecordDecider decider;
    private final DeciderProperties properties;

    TransactionListener(RecordDecider decider, DeciderProperties properties) {
        this.decider = decider;
        this.properties = properties;
    }

    @KafkaListener(
            id = "risk-decider",
            topics = "${risk.topics.transactions:risk.transactions}",
            groupId = "${risk.decider.group-id:risk-decider}",
            concurrency = "${risk.decider.concurrency:2}",
            containerFactory = "deciderContainerFactory")
    void onPoll(List<ConsumerRecord<byte[], byte[]>> records) {
        List<CompletableFuture<?>> sends = new ArrayList<>(records.size());
        for (ConsumerRecord<byte[], byte[]> record : records) {
            try {
                sends.add(decider.decide(record));
            } catch (RuntimeException failure) {
                awaitSends(records, sends);
                throw new BatchListenerFailedException("Deciding failed", failure, record);
            }
        }
        awaitSends(records, sends);
    }

    /** Waits for the sends of records.get(0 .. sends.size() - 1); throws for the first that failed. */
    private void awaitSends(List<ConsumerRecord<byte[], byte[]>> records, List<CompletableFuture<?>> sends) {
        long deadline = System.nanoTime() + properties.sendTimeout().toNanos();
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
