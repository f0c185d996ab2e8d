package io.risklimits.decider;

import io.risklimits.decision.TransactionEventReader;
import io.risklimits.decision.store.WindowStartsCache;
import io.risklimits.shared.RiskProperties;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class DeciderConfiguration {

    @Bean
    Clock deciderClock() {
        return Clock.systemUTC();
    }

    @Bean
    TransactionEventReader transactionEventReader(RiskProperties properties, Clock clock) {
        return new TransactionEventReader(properties.currency(), properties.maxClockSkew(), clock);
    }

    @Bean
    WindowStartsCache windowStartsCache(DeciderProperties properties) {
        return new WindowStartsCache(properties.windowStartsCacheKeys());
    }
}
