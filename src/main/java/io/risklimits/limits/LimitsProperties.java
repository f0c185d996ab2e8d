package io.risklimits.limits;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/** @param refresh how long a change to risk_limit may take to be in force */
@ConfigurationProperties("risk.limits")
public record LimitsProperties(@DefaultValue("5s") Duration refresh) {}
