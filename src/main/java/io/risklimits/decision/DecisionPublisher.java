package io.risklimits.decision;

import io.risklimits.kafka.TopicProperties;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import org.springframework.stereotype.Component;

/** Publishes decisions to the decisions topic, keyed by business key (or the original key when unreadable). */
@Component
class DecisionPublisher {

    private final KafkaTemplate<byte[], byte[]> kafka;
    private final TopicProperties topics;

    DecisionPublisher(KafkaTemplate<byte[], byte[]> kafka, TopicProperties topics) {
        this.kafka = kafka;
        this.topics = topics;
    }

    CompletableFuture<SendResult<byte[], byte[]>> publish(Decision decision, byte[] originalKey) {
        byte[] key = decision.fields()
                .businessKey()
                .map(businessKey -> businessKey.recordKey().getBytes(StandardCharsets.UTF_8))
                .orElse(originalKey);
        return kafka.send(topics.decisions(), key, DecisionJson.message(decision));
    }
}
