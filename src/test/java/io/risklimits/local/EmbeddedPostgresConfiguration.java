package io.risklimits.local;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Local mode without spring.datasource.url: a real PostgreSQL server (binaries from Maven Central) on this
 * machine. zonky runs it with fsync off: local mode is for trying the service, not for data to keep.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty("risk.local")
@ConditionalOnExpression("'${spring.datasource.url:}'.isEmpty()")
class EmbeddedPostgresConfiguration {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresConfiguration.class);

    @Bean(destroyMethod = "close")
    EmbeddedPostgres embeddedPostgres(EmbeddedServersProperties embedded) throws IOException {
        EmbeddedServersProperties.Postgres settings = embedded.postgres();
        Files.createDirectories(settings.dataDirectory());
        EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                .setPort(settings.port())
                .setDataDirectory(settings.dataDirectory())
                .setCleanDataDirectory(false)
                .start();
        log.info(
                "Embedded PostgreSQL on port {} with data in {} (set spring.datasource.url to use your own)",
                settings.port(),
                settings.dataDirectory().toAbsolutePath());
        return postgres;
    }

    @Bean
    JdbcConnectionDetails embeddedPostgresConnectionDetails(EmbeddedPostgres postgres) {
        return new JdbcConnectionDetails() {
            @Override
            public String getUsername() {
                return "postgres";
            }

            @Override
            public String getPassword() {
                return "";
            }

            @Override
            public String getJdbcUrl() {
                return postgres.getJdbcUrl("postgres", "postgres");
            }
        };
    }
}
