package io.risklimits.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.TestInfrastructure;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * rates set, import and show against the real PostgreSQL of the test run. The rates are of currencies no
 * other test converts (MXN, BRL, ZAR, INR), deleted at the end.
 */
class RatesCommandIT {

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());

    @TempDir
    Path files;

    @AfterAll
    static void deleteTheRates() {
        new JdbcTemplate(TestInfrastructure.get().dataSource())
                .update("DELETE FROM risk_fx_rate WHERE currency IN ('MXN', 'BRL', 'ZAR', 'INR')");
    }

    @Test
    void aRateIsSetValidFromTheGivenInstantAndShown() {
        CliRun set = run("rates set MXN 0.0581 --valid-from 2026-03-01T00:00:00Z");
        CliRun show = run("rates show");

        assertThat(set.exitCode()).as(set.toString()).isZero();
        assertThat(set.out()).contains("set MXN rate 0.0581 valid from 2026-03-01T00:00:00Z");
        assertThat(db.queryForObject(
                        "SELECT rate FROM risk_fx_rate WHERE currency = 'MXN' AND valid_from = '2026-03-01T00:00:00Z'",
                        BigDecimal.class))
                .isEqualByComparingTo("0.0581");
        assertThat(show.exitCode()).as(show.toString()).isZero();
        assertThat(show.out()).containsPattern("MXN +0\\.0581 +2026-03-01T00:00:00Z");
    }

    @Test
    void aRateSetWithoutValidFromIsValidFromNow() {
        CliRun set = run("rates set ZAR 0.054");

        assertThat(set.exitCode()).as(set.toString()).isZero();
        assertThat(db.queryForObject(
                        "SELECT now() - max(valid_from) < interval '1 minute' FROM risk_fx_rate WHERE currency = 'ZAR'",
                        Boolean.class))
                .isTrue();
    }

    @Test
    void aCsvFileOfRatesIsImportedInOneGo() throws Exception {
        Path csv = files.resolve("rates.csv");
        Files.writeString(csv, """
                currency,rate,valid_from
                BRL,0.1812,2026-03-01T00:00:00Z
                BRL,0.1799,2026-03-02T00:00:00Z
                """);

        CliRun imported = run("rates import " + csv);

        assertThat(imported.exitCode()).as(imported.toString()).isZero();
        assertThat(imported.out()).contains("imported 2 rates");
        assertThat(db.queryForObject("SELECT count(*) FROM risk_fx_rate WHERE currency = 'BRL'", Integer.class))
                .isEqualTo(2);
    }

    @Test
    void aRateOfNoIsoCurrencyOrNotPositiveIsRefusedAsABadArgument() {
        assertThat(run("rates set XXX 1.5").exitCode()).isEqualTo(2);
        assertThat(run("rates set INR 0").exitCode()).isEqualTo(2);
        assertThat(run("rates set INR -1.2").exitCode()).isEqualTo(2);
        assertThat(db.queryForObject("SELECT count(*) FROM risk_fx_rate WHERE currency = 'INR'", Integer.class))
                .isZero();
    }

    private static CliRun run(String command) {
        TestInfrastructure infrastructure = TestInfrastructure.get();
        return CliRun.of(Stream.concat(
                        Stream.of(command.split(" +")),
                        Stream.of(
                                "--jdbc-url=" + infrastructure.jdbcUrl(),
                                "--db-user=" + infrastructure.username(),
                                "--db-password=" + infrastructure.password()))
                .toArray(String[]::new));
    }
}
