package io.risklimits.limits;

import java.time.Duration;
import java.time.ZoneId;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param refresh how long a change to risk_limit may take to be in force
 * @param timeZone the zone of the calendar windows (day, week, month); its offset must be whole hours
 */
@ConfigurationProperties("risk.limits")
public record LimitsProperties(
        @DefaultValue("5s") Duration refresh,
        @DefaultValue("UTC") ZoneId timeZone) {}
