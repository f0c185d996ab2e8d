package io.risklimits.cli;

import io.risklimits.decision.FxRate;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The rows of risk_fx_rate as the rates commands read and write them (as the table's owner). */
final class FxRateRows {

    // one statement, so a file is imported whole or not at all; one row per currency and valid_from: setting
    // it again replaces the rate. A rate without valid_from is valid from now (the database clock).
    private static final String UPSERT = """
            INSERT INTO risk_fx_rate (currency, rate, valid_from)
            SELECT currency, rate, coalesce(valid_from, now())
            FROM unnest(CAST(:currencies AS text[]), CAST(:rates AS numeric[]), CAST(:validFroms AS timestamptz[]))
                 AS given (currency, rate, valid_from)
            ON CONFLICT (currency, valid_from) DO UPDATE SET rate = excluded.rate
            RETURNING valid_from
            """;

    private static final String SELECT_ALL = """
            SELECT currency, rate, valid_from
            FROM risk_fx_rate
            ORDER BY currency, valid_from
            """;

    private final JdbcClient jdbc;

    FxRateRows(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Inserts or replaces the rates (a validFrom of null: valid from now). Returns when each is valid from.
     */
    List<Instant> upsertAll(List<FxRate> rates) {
        return jdbc.sql(UPSERT)
                .param("currencies", rates.stream().map(FxRate::currency).toArray(String[]::new))
                .param(
                        "rates",
                        rates.stream().map(rate -> rate.rate().toPlainString()).toArray(String[]::new))
                .param(
                        "validFroms",
                        rates.stream()
                                .map(rate -> rate.validFrom() == null
                                        ? null
                                        : rate.validFrom().toString())
                                .toArray(String[]::new))
                .query((rs, rowNum) ->
                        rs.getObject("valid_from", OffsetDateTime.class).toInstant())
                .list();
    }

    List<FxRate> all() {
        return jdbc.sql(SELECT_ALL)
                .query((rs, rowNum) -> new FxRate(
                        rs.getString("currency"),
                        rs.getBigDecimal("rate"),
                        rs.getObject("valid_from", OffsetDateTime.class).toInstant()))
                .list();
    }
}
