package io.risklimits.decision;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param groupId consumer group of the decider
 * @param concurrency consumer threads in this process (each needs a database connection)
 * @param sendTimeout how long to wait for the broker to confirm a poll's decisions before the poll is retried
 * @param mode batched: a poll's valid events in one transaction; per-event: one transaction per event,
 *     usage summed over the hourly buckets (the seed's design, kept as the benchmark's baseline)
 * @param windowStartsCacheKeys business keys per instance whose window starts are remembered for the
 *     current hour (batched mode; 0: read them every time)
 */
@ConfigurationProperties("risk.decider")
public record DeciderProperties(
        @DefaultValue("risk-decider") String groupId,
        @DefaultValue("2") int concurrency,
        @DefaultValue("60s") Duration sendTimeout,
        @DefaultValue("batched") Mode mode,
        @DefaultValue("100000") int windowStartsCacheKeys) {

    public DeciderProperties {
        if (windowStartsCacheKeys < 0) {
            throw new IllegalArgumentException(
                    "risk.decider.window-starts-cache-keys must be 0 or more, not " + windowStartsCacheKeys);
        }
    }

    public enum Mode {
        BATCHED,
        PER_EVENT
    }
}
