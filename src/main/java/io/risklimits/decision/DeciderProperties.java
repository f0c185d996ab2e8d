package io.risklimits.decision;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param groupId consumer group of the decider
 * @param concurrency consumer threads in this process (each needs a database connection)
 * @param sendTimeout how long to wait for the broker to confirm a poll's decisions before the poll is retried
 */
@ConfigurationProperties("risk.decider")
public record DeciderProperties(
        @DefaultValue("risk-decider") String groupId,
        @DefaultValue("2") int concurrency,
        @DefaultValue("60s") Duration sendTimeout) {}
