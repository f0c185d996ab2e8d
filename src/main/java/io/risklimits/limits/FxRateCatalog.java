package io.risklimits.limits;

import io.risklimits.decision.FxRate;
import io.risklimits.decision.FxRates;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The rates known: risk_fx_rate read at start-up and again every risk.limits.refresh, like the limits, so
 * a new rate is in force without a restart and converting costs no query.
 */
@Component
public class FxRateCatalog implements FxRates {

    private static final Logger log = LoggerFactory.getLogger(FxRateCatalog.class);

    private static final String SELECT_RATES = """
            SELECT currency, rate, valid_from
            FROM risk_fx_rate
            """;

    private final JdbcClient jdbc;
    private volatile Map<String, NavigableMap<Instant, FxRate>> rates;

    public FxRateCatalog(JdbcClient jdbc) {
        this.jdbc = jdbc;
        this.rates = load();
    }

    @Override
    public FxRate latestAt(String currency, Instant at) {
        NavigableMap<Instant, FxRate> history = rates.get(currency);
        if (history == null) {
            return null;
        }
        Map.Entry<Instant, FxRate> latest = history.floorEntry(at);
        return latest == null ? null : latest.getValue();
    }

    @Scheduled(
            fixedDelayString = "#{@'risk.limits-io.risklimits.limits.LimitsProperties'.refresh().toMillis()}",
            initialDelayString = "#{@'risk.limits-io.risklimits.limits.LimitsProperties'.refresh().toMillis()}")
    public void refresh() {
        try {
            rates = load();
        } catch (RuntimeException e) {
            // keep converting with the last rates read rather than stopping; the next refresh retries
            log.warn("Could not reload risk_fx_rate, keeping the previous rates: {}", e.toString());
        }
    }

    private Map<String, NavigableMap<Instant, FxRate>> load() {
        Map<String, NavigableMap<Instant, FxRate>> byCurrency = new HashMap<>();
        jdbc.sql(SELECT_RATES)
                .query((rs, rowNum) -> new FxRate(
                        rs.getString("currency"),
                        rs.getBigDecimal("rate"),
                        rs.getObject("valid_from", java.time.OffsetDateTime.class)
                                .toInstant()))
                .list()
                .forEach(rate -> byCurrency
                        .computeIfAbsent(rate.currency(), currency -> new TreeMap<>())
                        .put(rate.validFrom(), rate));
        return byCurrency;
    }
}
