package io.risklimits.startup;

import io.risklimits.shared.StartRefused;
import java.util.List;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * Refuses a start without the database or the broker, before any bean exists. A worker that decided
 * against a database it made up (an empty one: every key unused, every limit open) or that shares no
 * lock with its peers would fail open, the worst failure a limit engine can have. Only local mode
 * (risk.local=true, turned on by ./mvnw spring-boot:run alone) fills in what is missing, with embedded
 * servers that exist on the test classpath only, never in the packaged jar.
 */
class RequiredConnections implements EnvironmentPostProcessor {

    static final String LOCAL_MODE = "risk.local";
    static final List<String> REQUIRED = List.of("spring.datasource.url", "spring.kafka.bootstrap-servers");

    // present only on the test classpath, where local mode's embedded servers live
    private static final String EMBEDDED_SERVERS = "io.risklimits.local.EmbeddedServersProperties";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        boolean localMode = environment.getProperty(LOCAL_MODE, Boolean.class, false);
        if (localMode) {
            if (!ClassUtils.isPresent(EMBEDDED_SERVERS, application.getClassLoader())) {
                throw new StartRefused(
                        LOCAL_MODE + "=true, but this build has no embedded servers (local mode runs from the"
                                + " source tree only)",
                        "Run local mode with ./mvnw spring-boot:run, or remove " + LOCAL_MODE
                                + " and set spring.datasource.url and spring.kafka.bootstrap-servers.");
            }
            return;
        }
        for (String property : REQUIRED) {
            if (!StringUtils.hasText(environment.getProperty(property))) {
                throw new StartRefused(
                        property + " is not set: this worker decides only against its configured database"
                                + " and broker",
                        "Set " + property + " (environment variable " + environmentVariable(property)
                                + "), or try the service in local mode with ./mvnw spring-boot:run.");
            }
        }
    }

    private static String environmentVariable(String property) {
        return property.toUpperCase().replace('.', '_').replace("-", "");
    }
}
