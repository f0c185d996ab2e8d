package io.risklimits.decider;

import io.risklimits.decision.TransactionEventReader;
import io.risklimits.decision.hold.HoldTerms;
import io.risklimits.decision.store.WindowStartsCache;
import io.risklimits.shared.RiskProperties;
import io.risklimits.shared.StartRefused;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class DeciderConfiguration {

    @Bean
    Clock deciderClock() {
        return Clock.systemUTC();
    }

    @Bean
    TransactionEventReader transactionEventReader(RiskProperties properties, HoldProperties holds, Clock clock) {
        return new TransactionEventReader(properties.currency(), properties.maxClockSkew(), holds.maxTtl(), clock);
    }

    /**
     * Which authorizations are holds and for how long; refused at start-up when a hold could outlive the
     * hours it was counted in (risk.holds.max-ttl not below risk.retention) or a hold time is not positive.
     */
    @Bean
    HoldTerms holdTerms(HoldProperties holds, RiskProperties risk) {
        List<String> problems = new ArrayList<>();
        if (!positive(holds.ttl())) {
            problems.add("risk.holds.ttl must be positive, not " + holds.ttl());
        }
        if (!positive(holds.maxTtl())) {
            problems.add("risk.holds.max-ttl must be positive, not " + holds.maxTtl());
        }
        if (holds.maxTtl().compareTo(risk.retention()) >= 0) {
            problems.add("risk.holds.max-ttl (" + holds.maxTtl() + ") must be below risk.retention (" + risk.retention()
                    + "): a hold must expire while the hours it was counted in still exist");
        }
        if (holds.ttl().compareTo(holds.maxTtl()) > 0) {
            problems.add(
                    "risk.holds.ttl (" + holds.ttl() + ") must not exceed risk.holds.max-ttl (" + holds.maxTtl() + ")");
        }
        if (holds.sweepKeys() < 1 || !positive(holds.sweepInterval())) {
            problems.add("risk.holds.sweep-keys and risk.holds.sweep-interval must be positive");
        }
        if (!problems.isEmpty()) {
            throw new StartRefused(String.join("; ", problems), "Change the settings named above.");
        }
        return new HoldTerms(Set.copyOf(holds.channels()), holds.ttl());
    }

    @Bean
    WindowStartsCache windowStartsCache(DeciderProperties properties) {
        return new WindowStartsCache(properties.windowStartsCacheKeys());
    }

    private static boolean positive(Duration duration) {
        return !duration.isNegative() && !duration.isZero();
    }
}
