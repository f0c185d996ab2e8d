package io.risklimits.archive;

import io.risklimits.decision.Window;
import io.risklimits.shared.RiskProperties;
import java.time.Duration;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class ArchiverConfiguration {

    ArchiverConfiguration(RiskProperties risk) {
        refuseRetentionShorterThanTheLongestWindow(risk.retention());
    }

    static void refuseRetentionShorterThanTheLongestWindow(Duration retention) {
        Duration longest = Duration.ofHours(Window.LAST_30_DAYS.hours());
        if (retention.compareTo(longest) < 0) {
            throw new IllegalStateException("risk.retention is " + retention.toDays() + "d (" + retention
                    + ") but must be at least the longest limit window, 30d: deleting younger buckets would"
                    + " make usage look smaller than it is and approve what the limits forbid");
        }
    }
}
