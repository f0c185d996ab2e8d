package io.risklimits.decider;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param groupId consumer group of the decider
 * @param concurrency consumer threads in this process (each needs a database connection)
 * @param windowStartsCacheKeys business keys per instance whose window starts are remembered for the
 *     current hour (0: read them every time)
 */
@ConfigurationProperties("risk.decider")
public record DeciderProperties(
        @DefaultValue("risk-decider") String groupId,
        @DefaultValue("2") int concurrency,
        @DefaultValue("100000") int windowStartsCacheKeys) {

    public DeciderProperties {
        if (windowStartsCacheKeys < 0) {
            throw new IllegalArgumentException(
                    "risk.decider.window-starts-cache-keys must be 0 or more, not " + windowStartsCacheKeys);
        }
    }
}
