package io.risklimits.archive;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param groupId consumer group of the archiver
 * @param workers fixed fan-out: parallel delete workers, each over its own slice of the key-hash space
 * @param statementTimeout a delete slower than this shrinks the window (180 -> 60 -> 30 -> 15 minutes)
 * @param lease how long a run holds the single-archiver lease without renewing it (renewed every window)
 * @param metricsRefresh how often the archive cursor's lag behind the retention cutoff is read for its metric
 */
@ConfigurationProperties("risk.archiver")
public record ArchiverProperties(
        @DefaultValue("risk-archiver") String groupId,
        @DefaultValue("9") int workers,
        @DefaultValue("30s") Duration statementTimeout,
        @DefaultValue("5m") Duration lease,
        @DefaultValue("60s") Duration metricsRefresh) {

    public ArchiverProperties {
        if (workers < 1 || workers > 64) {
            throw new IllegalArgumentException("risk.archiver.workers must be 1 .. 64, not " + workers);
        }
    }
}
