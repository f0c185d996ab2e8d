package io.risklimits.decider;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The hold lifecycle's settings.
 *
 * @param channels the channels whose approved authorizations are holds
 * @param ttl how long a hold lasts when its authorization names no hold_expires_at
 * @param maxTtl how far after occurred_at a hold_expires_at may be; below risk.retention, so that a hold's
 *     hours still exist when it expires
 * @param sweepInterval how often each instance expires the due holds of idle keys and sends the expiries
 *     not yet sent
 * @param sweepKeys how many keys one sweep transaction expires the holds of (the locks it holds at once)
 */
@ConfigurationProperties("risk.holds")
public record HoldProperties(
        @DefaultValue("CARD") List<String> channels,
        @DefaultValue("7d") Duration ttl,
        @DefaultValue("30d") Duration maxTtl,
        @DefaultValue("60s") Duration sweepInterval,
        @DefaultValue("100") int sweepKeys) {}
