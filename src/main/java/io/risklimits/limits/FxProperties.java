package io.risklimits.limits;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/** @param maxAge how old the latest rate of a currency may be for a decision to convert with it */
@ConfigurationProperties("risk.fx")
public record FxProperties(@DefaultValue("48h") Duration maxAge) {}
