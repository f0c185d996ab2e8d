package io.risklimits.kafka;

import java.util.Map;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaAdmin;

/** Creates the contract's topics at start-up when they are missing; existing topics are left as they are. */
@Configuration(proxyBeanMethods = false)
class KafkaTopicsConfiguration {

    @Bean
    KafkaAdmin.NewTopics riskTopics(TopicProperties topics) {
        return new KafkaAdmin.NewTopics(
                topic(topics.transactions(), topics.partitions(), topics),
                topic(topics.decisions(), topics.partitions(), topics),
                // room for a copy of the largest record the transactions topic accepts, plus headers
                topic(topics.deadLetter(), topics.partitions(), topics)
                        .configs(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(2 * 1024 * 1024))),
                // one partition: commands are handled one at a time, in the order operators sent them
                topic(topics.archiveCommands(), 1, topics),
                topic(topics.archiveResults(), 1, topics));
    }

    private static NewTopic topic(String name, int partitions, TopicProperties topics) {
        TopicBuilder builder = TopicBuilder.name(name).partitions(partitions);
        if (topics.replicationFactor() > 0) {
            builder.replicas(topics.replicationFactor());
        }
        return builder.build();
    }
}
