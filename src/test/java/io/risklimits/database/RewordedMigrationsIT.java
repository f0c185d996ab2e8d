package io.risklimits.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.risklimits.support.DatabaseOfItsOwn;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.exception.FlywayValidateException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A database migrated while V1 to V3 had their earlier comments starts with the service as it is: the
 * service migrates as the schema owner (spring.flyway.user) and runs as a login that is only a member
 * of risk_decider, as in production. Each test gets a database of its own, migrated by Flyway from
 * the current texts, whose schema history is then set as an earlier migration would have left it.
 */
class RewordedMigrationsIT {

    private static final String PASSWORD = "it-" + UUID.randomUUID();

    private final String login =
            "risk_it_reworded_decider_" + UUID.randomUUID().toString().substring(0, 8);
    private final JdbcTemplate server =
            new JdbcTemplate(TestInfrastructure.get().dataSource());
    private DatabaseOfItsOwn database;
    private JdbcTemplate owner;

    @BeforeEach
    void migrateADatabaseOfItsOwn() {
        database = DatabaseOfItsOwn.migrated("risk_it_reworded");
        server.execute("CREATE ROLE " + login + " LOGIN PASSWORD '" + PASSWORD + "' IN ROLE risk_decider");
        owner = new JdbcTemplate(database.dataSource());
    }

    @AfterEach
    void dropTheDatabase() {
        database.close();
        server.execute("DROP ROLE IF EXISTS " + login);
    }

    @Test
    void freshMigrationsStoreTheChecksumsOfTheCurrentTexts() {
        for (RewordedMigrations.Reworded reworded : RewordedMigrations.REWORDED) {
            assertThat(storedChecksum(reworded.version()))
                    .as("checksum of V%s", reworded.version())
                    .isEqualTo(reworded.checksum());
        }
    }

    @Test
    void aDatabaseMigratedWithTheEarlierCommentsStartsAndKeepsTheCurrentChecksums() {
        for (RewordedMigrations.Reworded reworded : RewordedMigrations.REWORDED) {
            setStoredChecksum(reworded.version(), reworded.previousChecksum());
        }

        try (RunningService service = RunningService.start(RunningService.Topics.unique(), asDecider())) {
            assertThat(service.bean(Flyway.class).info().pending()).isEmpty();
        }

        for (RewordedMigrations.Reworded reworded : RewordedMigrations.REWORDED) {
            assertThat(storedChecksum(reworded.version()))
                    .as("checksum of V%s", reworded.version())
                    .isEqualTo(reworded.checksum());
        }
    }

    @Test
    void aDatabaseWithAnyOtherChecksumStillRefusesToStart() {
        RewordedMigrations.Reworded first = RewordedMigrations.REWORDED.get(0);
        int unknown = first.previousChecksum() + 1;
        setStoredChecksum(first.version(), unknown);

        assertThatThrownBy(() -> RunningService.start(RunningService.Topics.unique(), asDecider())
                        .close())
                .hasRootCauseInstanceOf(FlywayValidateException.class)
                .rootCause()
                .hasMessageContaining("Migration checksum mismatch for migration version " + first.version());
        assertThat(storedChecksum(first.version())).isEqualTo(unknown);
    }

    private Map<String, Object> asDecider() {
        TestInfrastructure infrastructure = TestInfrastructure.get();
        Map<String, Object> overrides = new HashMap<>();
        overrides.put("risk.roles", "decider");
        overrides.put("spring.datasource.url", database.url());
        overrides.put("spring.datasource.username", login);
        overrides.put("spring.datasource.password", PASSWORD);
        overrides.put("spring.flyway.user", infrastructure.username());
        overrides.put("spring.flyway.password", infrastructure.password());
        return overrides;
    }

    private Integer storedChecksum(String version) {
        return owner.queryForObject(
                "SELECT checksum FROM flyway_schema_history WHERE version = ?", Integer.class, version);
    }

    private void setStoredChecksum(String version, int checksum) {
        assertThat(owner.update("UPDATE flyway_schema_history SET checksum = ? WHERE version = ?", checksum, version))
                .isEqualTo(1);
    }
}
