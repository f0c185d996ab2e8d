package io.risklimits.kafka;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Topic names and how the topics are created when missing.
 *
 * @param partitions partitions of the transactions, decisions and dead-letter topics
 * @param replicationFactor replicas of each topic created; 0 or less leaves it to the broker's default
 */
@ConfigurationProperties("risk.topics")
public record TopicProperties(
        @DefaultValue("risk.transactions") String transactions,
        @DefaultValue("risk.decisions") String decisions,
        @DefaultValue("risk.transactions.dlt") String deadLetter,
        @DefaultValue("risk.archive.commands") String archiveCommands,
        @DefaultValue("risk.archive.results") String archiveResults,
        @DefaultValue("12") int partitions,
        @DefaultValue("0") int replicationFactor) {}
