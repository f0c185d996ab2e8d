package io.risklimits.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.risklimits.support.DecisionMessage;
import io.risklimits.support.Events;
import io.risklimits.support.HourBoundary;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Least privilege (V3__least_privilege_roles.sql), with the real service: it migrates as the schema
 * owner (spring.flyway.user) and runs as a login that is only a member of risk_decider, respectively
 * risk_archiver. The decider decides but can neither change the schema nor delete; the archiver deletes
 * past retention.
 */
class DatabaseRolesIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String PASSWORD = "it-" + UUID.randomUUID();
    private static final String SUFFIX = UUID.randomUUID().toString().substring(0, 8);
    private static final String DECIDER_LOGIN = "risk_it_decider_" + SUFFIX;
    private static final String ARCHIVER_LOGIN = "risk_it_archiver_" + SUFFIX;

    private static final JdbcTemplate owner =
            new JdbcTemplate(TestInfrastructure.get().dataSource());

    private final RunningService.Topics topics = RunningService.Topics.unique();
    private final String channel = "ROLE_" + SUFFIX.toUpperCase();
    private final UUID entity = UUID.randomUUID();

    @BeforeAll
    static void createLogins() {
        owner.execute("CREATE ROLE " + DECIDER_LOGIN + " LOGIN PASSWORD '" + PASSWORD + "' IN ROLE risk_decider");
        owner.execute("CREATE ROLE " + ARCHIVER_LOGIN + " LOGIN PASSWORD '" + PASSWORD + "' IN ROLE risk_archiver");
    }

    @AfterAll
    static void dropLogins() {
        // roles are cluster-wide and outlive the test database's other tests
        owner.execute("DROP ROLE IF EXISTS " + DECIDER_LOGIN);
        owner.execute("DROP ROLE IF EXISTS " + ARCHIVER_LOGIN);
    }

    @Test
    void aDeciderLoginDecidesEndToEnd() {
        UUID dedupeId = UUID.randomUUID();
        try (RunningService service = RunningService.start(topics, loginAs(DECIDER_LOGIN, "decider"));
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            TestKafka.send(
                    producer,
                    topics.transactions(),
                    null,
                    Events.businessKey(entity, channel, "OUT"),
                    Events.json(Events.event(dedupeId, entity, channel, "OUT", 500)));

            List<ConsumerRecord<byte[], byte[]>> decisions =
                    TestKafka.readAtLeast(topics.decisions(), 1, Duration.ofSeconds(60));

            DecisionMessage decision = DecisionMessage.of(decisions.get(0));
            assertThat(new JdbcTemplate(service.bean(DataSource.class))
                            .queryForObject("SELECT current_user", String.class))
                    .as("the service's own login")
                    .isEqualTo(DECIDER_LOGIN);
            assertThat(decision.dedupeId()).isEqualTo(dedupeId.toString());
            assertThat(decision.decision()).isEqualTo("APPROVED");
        }
        assertThat(owner.queryForObject(
                        "SELECT count(*) FROM risk_hourly_agg WHERE entity_id = ? AND channel_code = ?",
                        Long.class,
                        entity,
                        channel))
                .isEqualTo(1);
    }

    @Test
    void aDeciderLoginCannotChangeTheSchemaNorDelete() throws SQLException {
        try (Connection decider = connect(DECIDER_LOGIN)) {
            assertRefused(decider, "CREATE TABLE risk_it_intruder (id int)", "permission denied for schema");
            assertRefused(decider, "DROP TABLE risk_request_log", "must be owner");
            assertRefused(decider, "ALTER TABLE risk_hourly_chunk ADD COLUMN intruder int", "must be owner");
            assertRefused(decider, "CREATE INDEX risk_it_intruder ON risk_request_log (amount)", "must be owner");
            assertRefused(decider, "DELETE FROM risk_request_log WHERE false", "permission denied for table");
            assertRefused(decider, "DELETE FROM risk_hourly_chunk WHERE false", "permission denied for table");
            assertRefused(decider, "DELETE FROM risk_hourly_agg WHERE false", "permission denied for view");
            assertRefused(decider, "DELETE FROM risk_keyless_request_log WHERE false", "permission denied for table");
            assertRefused(decider, "TRUNCATE risk_request_log", "permission denied for table");
            assertRefused(decider, "UPDATE risk_limit SET max_amount = 0 WHERE false", "permission denied for table");
            assertRefused(
                    decider, "UPDATE risk_request_log SET decision = 'APPROVED' WHERE false", "permission denied");
            assertRefused(decider, "UPDATE risk_archive_cursor SET cursor_ts = now() WHERE false", "permission denied");
        }
    }

    @Test
    void anArchiverLoginRunsAnArchiveCommandAndCannotDecide() throws SQLException {
        HourBoundary.awaitClearOfTheNextHour(Duration.ofSeconds(90));
        LocalDateTime cutoff = owner.queryForObject(
                "SELECT date_trunc('hour', (now() AT TIME ZONE 'UTC') - interval '32 days')", LocalDateTime.class);
        owner.update("DELETE FROM risk_archive_lease");
        owner.update("DELETE FROM risk_archive_cursor");
        owner.update("INSERT INTO risk_archive_cursor (cursor_ts) VALUES (?)", cutoff.minusHours(1));
        LocalDateTime bucket = cutoff.minusHours(1);
        owner.update("""
                INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
                VALUES (?, ?, 'OUT', ?, 100, 1)
                """, entity, channel, bucket);
        owner.update("""
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, decided_at)
                VALUES (?, ?, 'OUT', ?, ?, 'APPROVED', 100, 'USD', clock_timestamp())
                """, entity, channel, UUID.randomUUID(), bucket);

        try (RunningService service = RunningService.start(topics, loginAs(ARCHIVER_LOGIN, "archiver"))) {
            JsonNode result = runArchiveCommand();
            assertThat(new JdbcTemplate(service.bean(DataSource.class))
                            .queryForObject("SELECT current_user", String.class))
                    .isEqualTo(ARCHIVER_LOGIN);

            assertThat(result.get("status").stringValue()).isEqualTo("COMPLETED");
            assertThat(result.get("deleted_agg_rows").longValue()).isGreaterThanOrEqualTo(1);
            assertThat(result.get("deleted_log_rows").longValue()).isGreaterThanOrEqualTo(1);
        }
        assertThat(owner.queryForObject(
                        "SELECT count(*) FROM risk_request_log WHERE entity_id = ?", Long.class, entity))
                .isZero();
        try (Connection archiver = connect(ARCHIVER_LOGIN)) {
            assertRefused(
                    archiver,
                    "INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,"
                            + " decision, decided_at) SELECT entity_id, channel_code, direction_code, dedupe_id,"
                            + " bucket_ts, decision, decided_at FROM risk_request_log WHERE false",
                    "permission denied for table");
            assertRefused(archiver, "UPDATE risk_hourly_agg SET sum_amount = 0 WHERE false", "permission denied");
            assertRefused(archiver, "DROP TABLE risk_archive_cursor", "must be owner");
        }
    }

    private Map<String, Object> loginAs(String login, String role) {
        TestInfrastructure infrastructure = TestInfrastructure.get();
        Map<String, Object> overrides = new HashMap<>();
        overrides.put("risk.roles", role);
        // PgJDBC lets a user= in the URL win over the username property: the login must come from the property
        overrides.put("spring.datasource.url", urlWithoutUser());
        overrides.put("spring.datasource.username", login);
        overrides.put("spring.datasource.password", PASSWORD);
        // migrations (here: Flyway's validation of the applied ones) as the owner; the login may not read its history
        overrides.put("spring.flyway.user", infrastructure.username());
        overrides.put("spring.flyway.password", infrastructure.password());
        return overrides;
    }

    private JsonNode runArchiveCommand() {
        UUID commandId = UUID.randomUUID();
        TestKafka.awaitLeaders(List.of(topics.archiveCommands(), topics.archiveResults()));
        try (KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            String command = "{\"command_id\": \"" + commandId + "\", \"window_minutes\": 60}";
            TestKafka.send(
                    producer,
                    topics.archiveCommands(),
                    null,
                    commandId.toString(),
                    command.getBytes(StandardCharsets.UTF_8));
        }
        List<ConsumerRecord<byte[], byte[]>> results =
                TestKafka.readAtLeast(topics.archiveResults(), 1, Duration.ofSeconds(90));
        return JSON.readTree(results.get(0).value());
    }

    private static Connection connect(String login) throws SQLException {
        return DriverManager.getConnection(urlWithoutUser(), login, PASSWORD);
    }

    /** The embedded server's URL names its superuser (?user=postgres), which would override the login. */
    private static String urlWithoutUser() {
        return TestInfrastructure.get()
                .jdbcUrl()
                .replaceAll("([?&])user=[^&]*&?", "$1")
                .replaceAll("[?&]$", "");
    }

    private static void assertRefused(Connection connection, String sql, String reason) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            assertThatThrownBy(() -> statement.execute(sql))
                    .as(sql)
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining(reason);
        }
    }
}
