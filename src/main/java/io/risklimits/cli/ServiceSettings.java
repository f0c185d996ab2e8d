package io.risklimits.cli;

import io.risklimits.decider.HoldProperties;
import io.risklimits.decision.hold.HoldTerms;
import io.risklimits.limits.LimitsProperties;
import io.risklimits.shared.RiskProperties;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Set;
import java.util.function.Supplier;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.boot.context.config.ConfigDataException;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.StandardEnvironment;

/**
 * The service's own settings that a command must agree with, resolved as the service resolves them:
 * Spring Boot's config data (the jar's application.yml, ./application.yml, ./config/,
 * spring.config.location, profiles), environment variables and system properties, relaxed names
 * included ({@code RISK_LIMITS_TIME_ZONE}, {@code -Drisk.limits.time-zone}), bound to the service's own
 * property records with their defaults. No application context is started.
 */
final class ServiceSettings {

    private final Binder binder;

    private ServiceSettings(Binder binder) {
        this.binder = binder;
    }

    /** The settings this process would start the service with. */
    static ServiceSettings ofThisProcess() {
        return of(new StandardEnvironment());
    }

    /**
     * The settings of the environment (its property sources), with the config data files added to it.
     *
     * @throws IllegalArgumentException when a config data file it names cannot be read
     */
    static ServiceSettings of(ConfigurableEnvironment environment) {
        try {
            ConfigDataEnvironmentPostProcessor.applyTo(environment);
        } catch (ConfigDataException unreadable) {
            throw new IllegalArgumentException("the service's settings cannot be read: " + unreadable.getMessage());
        }
        return new ServiceSettings(Binder.get(environment));
    }

    /** risk.limits.time-zone. @throws IllegalArgumentException naming the property, when it is no zone */
    ZoneId timeZone() {
        return bound(
                "risk.limits.time-zone",
                () -> binder.bindOrCreate("risk.limits", LimitsProperties.class).timeZone());
    }

    /** risk.retention. @throws IllegalArgumentException naming the property, when it is no duration */
    Duration retention() {
        return bound(
                "risk.retention",
                () -> binder.bindOrCreate("risk", RiskProperties.class).retention());
    }

    /** risk.holds.channels and risk.holds.ttl: which authorizations are holds, and for how long. */
    HoldTerms holdTerms() {
        return bound("risk.holds", () -> {
            HoldProperties holds = binder.bindOrCreate("risk.holds", HoldProperties.class);
            return new HoldTerms(Set.copyOf(holds.channels()), holds.ttl());
        });
    }

    private static <T> T bound(String property, Supplier<T> binding) {
        try {
            return binding.get();
        } catch (BindException unreadable) {
            Throwable cause = unreadable;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            throw new IllegalArgumentException(
                    "the service's " + property + " cannot be read: " + cause.getMessage(), unreadable);
        }
    }
}
