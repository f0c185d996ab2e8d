package io.risklimits.decision;

import io.risklimits.RiskProperties;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class DeciderConfiguration {

    @Bean
    TransactionEventReader transactionEventReader(RiskProperties properties) {
        return new TransactionEventReader(properties.currency(), properties.maxClockSkew(), Clock.systemUTC());
    }

    @Bean
    WindowStartsCache windowStartsCache(DeciderProperties properties) {
        return new WindowStartsCache(properties.windowStartsCacheKeys());
    }
}
