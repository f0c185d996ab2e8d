package io.risklimits.decider;

import io.risklimits.decision.Decision;
import io.risklimits.decision.DecisionJson;
import io.risklimits.kafka.TopicProperties;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import org.springframework.stereotype.Component;

/**
 * Publishes decisions to the decisions topic, keyed by business key (or the original key when
 * unreadable), and counts each one once the broker has confirmed it.
 */
@Component
class DecisionPublisher {

    private static final Logger log = LoggerFactory.getLogger(DecisionPublisher.class);

    private final KafkaTemplate<byte[], byte[]> kafka;
    private final TopicProperties topics;
    private final DeciderMetrics metrics;

    DecisionPublisher(KafkaTemplate<byte[], byte[]> kafka, TopicProperties topics, DeciderMetrics metrics) {
        this.kafka = kafka;
        this.topics = topics;
        this.metrics = metrics;
    }

    CompletableFuture<SendResult<byte[], byte[]>> publish(Decision decision, ConsumerRecord<byte[], byte[]> record) {
        byte[] key = decision.fields()
                .businessKey()
                .map(businessKey -> businessKey.recordKey().getBytes(StandardCharsets.UTF_8))
                .orElse(record.key());
        return kafka.send(topics.decisions(), key, DecisionJson.message(decision))
                .whenComplete((sent, failure) -> {
                    if (failure == null) {
                        metrics.published(decision, record.timestamp());
                        logDecision(decision, record);
                    }
                });
    }

    /** Publishes an expiry the service made, keyed by its business key. */
    CompletableFuture<SendResult<byte[], byte[]>> publishExpiry(Decision expiry) {
        byte[] key = expiry.fields().businessKey().orElseThrow().recordKey().getBytes(StandardCharsets.UTF_8);
        return kafka.send(topics.decisions(), key, DecisionJson.message(expiry)).whenComplete((sent, failure) -> {
            if (failure == null) {
                metrics.published(expiry, 0);
            }
        });
    }

    // One line per decision, identifiers and outcome only: the payload never reaches the logs. Checked
    // first, since it runs on the producer's network thread for every decision and its arguments cost
    // even when the line is not written.
    private static void logDecision(Decision decision, ConsumerRecord<byte[], byte[]> record) {
        if (!log.isDebugEnabled()) {
            return;
        }
        log.atDebug()
                .addKeyValue("dedupe_id", decision.dedupeId())
                .addKeyValue("decision", decision.verdict())
                .addKeyValue("reason", decision.reason())
                .addKeyValue("replayed", decision.replayed())
                .addKeyValue("partition", record.partition())
                .addKeyValue("offset", record.offset())
                .log(
                        "Decision {}{} for dedupe_id {}{}",
                        decision.verdict(),
                        decision.reason() == null ? "" : " " + decision.reason(),
                        decision.dedupeId(),
                        decision.replayed() ? " (replayed)" : "");
    }
}
