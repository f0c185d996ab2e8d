package io.risklimits.decider;

import io.risklimits.decision.Decision;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Decides the valid events of a poll before any decision is published. Production has one, {@link
 * BatchDecider}; the benchmark's baseline (the seed's design, one transaction per event) stands in
 * for it there.
 */
public interface PollDecider {

    /**
     * The committed decisions of the poll's valid events, by index in the poll. The listener decides
     * the records missing from it one by one: invalid and unreadable ones, and all of them when the
     * batch failed for a reason tied to its records rather than to the infrastructure.
     */
    Map<Integer, Decision> decideValidEvents(List<ConsumerRecord<byte[], byte[]>> records);
}
