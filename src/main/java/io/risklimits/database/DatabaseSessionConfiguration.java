package io.risklimits.database;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The service's database sessions: every pooled connection gets the timeouts of {@link
 * DatabaseProperties} and TCP keepalives (settings it refuses to start with are io.risklimits.startup's).
 *
 * <p>Migrations run as spring.flyway.user get a connection of their own, without these timeouts.
 * Without it Flyway borrows the pool's connections and a migration statement is bounded by the
 * statement timeout too: a migration that may run longer starts with SET LOCAL statement_timeout = 0.
 * (Not done here through Flyway's initSql: a plain SET would stay on the pooled connection afterwards.)
 */
@Configuration(proxyBeanMethods = false)
class DatabaseSessionConfiguration {

    /**
     * Static, and binding from the environment rather than taking beans: a post-processor has to
     * exist before the beans it processes, the data source among them.
     */
    @Bean
    static BeanPostProcessor databaseSessionSettings(Environment environment) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof HikariDataSource pool) {
                    configure(pool, Binder.get(environment));
                }
                return bean;
            }
        };
    }

    static void configure(HikariDataSource pool, Binder binder) {
        DatabaseProperties database = binder.bindOrCreate("risk.database", DatabaseProperties.class);
        // options set by the operator (spring.datasource.hikari.data-source-properties.options) come last and win
        Object operatorOptions = pool.getDataSourceProperties().get("options");
        pool.addDataSourceProperty(
                "options", database.sessionOptions() + (operatorOptions == null ? "" : " " + operatorOptions));
        // the client notices a vanished server or a silently dropped connection instead of waiting forever
        pool.addDataSourceProperty("tcpKeepAlive", "true");
    }
}
