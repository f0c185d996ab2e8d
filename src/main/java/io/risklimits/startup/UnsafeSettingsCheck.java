package io.risklimits.startup;

import com.zaxxer.hikari.HikariDataSource;
import io.risklimits.archive.ArchiverProperties;
import io.risklimits.database.DatabaseProperties;
import io.risklimits.decider.DeciderProperties;
import io.risklimits.shared.RiskProperties;
import java.util.List;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/** Refuses {@link UnsafeSettings} as soon as the connection pool exists, before it opens a connection. */
@Configuration(proxyBeanMethods = false)
class UnsafeSettingsCheck {

    /**
     * Static, and binding from the environment rather than taking beans: a post-processor has to
     * exist before the beans it processes, the data source among them.
     */
    @Bean
    static BeanPostProcessor unsafeSettingsRefusal(Environment environment) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof HikariDataSource pool) {
                    UnsafeSettings.refuseToStart(settings(pool, Binder.get(environment)));
                }
                return bean;
            }
        };
    }

    static UnsafeSettings.Settings settings(HikariDataSource pool, Binder binder) {
        List<String> roles = RiskProperties.rolesBoundBy(binder);
        int deciderThreads = hasRole(roles, "decider")
                ? binder.bindOrCreate("risk.decider", DeciderProperties.class).concurrency()
                : 0;
        int archiverWorkers = hasRole(roles, "archiver")
                ? binder.bindOrCreate("risk.archiver", ArchiverProperties.class).workers()
                : 0;
        return new UnsafeSettings.Settings(
                pool.getMaximumPoolSize(),
                deciderThreads,
                archiverWorkers,
                pool.getJdbcUrl(),
                binder.bindOrCreate("risk.database", DatabaseProperties.class).allowInsecure());
    }

    private static boolean hasRole(List<String> roles, String role) {
        return roles.stream().map(String::trim).anyMatch(role::equalsIgnoreCase);
    }
}
