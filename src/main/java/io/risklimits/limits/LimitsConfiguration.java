package io.risklimits.limits;

import io.risklimits.decision.FxPolicy;
import io.risklimits.decision.WindowCalendar;
import io.risklimits.shared.RiskProperties;
import io.risklimits.shared.StartRefused;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class LimitsConfiguration {

    /** The conversion of amounts in other currencies than risk.currency, at the rates of risk_fx_rate. */
    @Bean
    FxPolicy fxPolicy(RiskProperties risk, FxProperties fx, FxRateCatalog rates) {
        return new FxPolicy(risk.currency(), fx.maxAge(), rates);
    }

    /**
     * The calendar windows' zone, refused at start-up unless its offset from UTC is whole hours from now
     * minus risk.retention on (the oldest hour a window can still reach).
     */
    @Bean
    WindowCalendar windowCalendar(LimitsProperties limits, RiskProperties risk) {
        try {
            return WindowCalendar.checked(limits.timeZone(), risk.retention(), Clock.systemUTC());
        } catch (IllegalArgumentException notWholeHours) {
            throw new StartRefused(
                    "risk.limits.time-zone: " + notWholeHours.getMessage(),
                    "Set risk.limits.time-zone to a zone whose offset from UTC is whole hours, such as UTC,"
                            + " Europe/Berlin or America/New_York.");
        }
    }
}
