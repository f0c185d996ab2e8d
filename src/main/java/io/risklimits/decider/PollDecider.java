package io.risklimits.decider;

import io.risklimits.decision.Decision;
import io.risklimits.decision.ReadResult;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Decides the events of a poll that are filed under a business key, in the order consumed, before any
 * decision is published. Production has one, {@link BatchDecider}; the benchmark's baseline (the seed's
 * design, one transaction per event) stands in for it there.
 */
public interface PollDecider {

    /**
     * The committed decisions of the poll's valid events and of its INVALID events that have a readable
     * business key, by index in the poll; reads holds what reading each record gave, read once. The
     * listener decides the records missing from it one by one: INVALID events without a readable key,
     * unreadable records, and all of them when the batch failed for a reason tied to its records
     * rather than to the infrastructure.
     */
    Map<Integer, Decision> decideInOrder(List<ConsumerRecord<byte[], byte[]>> records, List<ReadResult> reads);
}
