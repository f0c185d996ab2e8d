package io.risklimits.shared;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The top-level settings of the contract.
 *
 * @param roles which workers this process runs: decider, archiver or both
 * @param currency the only currency accepted (ISO 4217)
 * @param maxClockSkew how far in the future occurred_at may be
 * @param retention how long decisions and hourly buckets are kept before the archiver deletes them; never
 *     shorter than the longest window in use
 */
@ConfigurationProperties("risk")
public record RiskProperties(
        @DefaultValue({"decider", "archiver"}) List<String> roles,
        @DefaultValue("USD") String currency,
        @DefaultValue("5m") Duration maxClockSkew,
        @DefaultValue("32d") Duration retention) {

    /**
     * risk.roles as the binder holds it, else this record's default; the other settings are left unbound, so
     * a role condition is evaluated before, and independently of, their validation.
     */
    public static List<String> rolesBoundBy(Binder binder) {
        return binder.bind("risk.roles", Bindable.listOf(String.class))
                .orElseGet(() ->
                        new Binder().bindOrCreate("risk", RiskProperties.class).roles());
    }
}
