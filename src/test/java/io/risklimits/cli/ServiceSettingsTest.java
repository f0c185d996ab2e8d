package io.risklimits.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * The CLI reads the service's settings from the sources the service reads them from, relaxed names
 * included: the jar's application.yml, another application.yml, environment variables, system
 * properties, in Spring Boot's order.
 */
class ServiceSettingsTest {

    private final Map<String, Object> systemProperties = new HashMap<>();
    private final Map<String, Object> environmentVariables = new HashMap<>();

    @TempDir
    Path config;

    @Test
    void withNothingSetTheServiceDefaultsApply() {
        ServiceSettings settings = settings();

        assertThat(settings.timeZone()).isEqualTo(ZoneId.of("UTC"));
        assertThat(settings.retention()).isEqualTo(Duration.ofDays(32));
    }

    @Test
    void environmentVariablesAreReadByTheirRelaxedNames() {
        environmentVariables.put("RISK_LIMITS_TIME_ZONE", "America/New_York");
        environmentVariables.put("RISK_RETENTION", "40d");

        ServiceSettings settings = settings();

        assertThat(settings.timeZone()).isEqualTo(ZoneId.of("America/New_York"));
        assertThat(settings.retention()).isEqualTo(Duration.ofDays(40));
    }

    @Test
    void anApplicationYmlOfTheDeploymentIsRead() throws IOException {
        Files.writeString(config.resolve("application.yml"), """
                risk:
                  retention: 45d
                  limits:
                    timeZone: Europe/Berlin
                """);
        systemProperties.put("spring.config.additional-location", "file:" + config + "/");

        ServiceSettings settings = settings();

        assertThat(settings.timeZone()).isEqualTo(ZoneId.of("Europe/Berlin"));
        assertThat(settings.retention()).isEqualTo(Duration.ofDays(45));
    }

    @Test
    void aSystemPropertyWinsOverAnEnvironmentVariableAndTheFiles() {
        environmentVariables.put("RISK_LIMITS_TIME_ZONE", "America/New_York");
        systemProperties.put("risk.limits.time-zone", "Asia/Tokyo");

        assertThat(settings().timeZone()).isEqualTo(ZoneId.of("Asia/Tokyo"));
    }

    @Test
    void aSettingThatCannotBeReadIsNamed() {
        environmentVariables.put("RISK_LIMITS_TIME_ZONE", "Mars/Olympus");

        assertThatThrownBy(() -> settings().timeZone())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("risk.limits.time-zone")
                .hasMessageContaining("Mars/Olympus");
    }

    /** The settings of a process with these system properties and environment variables only. */
    private ServiceSettings settings() {
        StandardEnvironment environment = new StandardEnvironment();
        environment
                .getPropertySources()
                .replace(
                        StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME,
                        new MapPropertySource(
                                StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME, systemProperties));
        environment
                .getPropertySources()
                .replace(
                        StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        new SystemEnvironmentPropertySource(
                                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, environmentVariables));
        return ServiceSettings.of(environment);
    }
}
