package io.risklimits.decider;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.DecisionMessage;
import io.risklimits.support.DecisionTimeFunctions;
import io.risklimits.support.Events;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Headroom end to end: each authorization and increment says what one more authorization of its key could
 * take right after it (available), a calendar window's usage says when the window starts again (resets_at),
 * and a replay says the same; figures computed by hand from the limits below.
 */
class HeadroomIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final String channel =
            "HDR_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();
    private final UUID entity = UUID.randomUUID();

    @AfterEach
    void deleteLimits() {
        db.update("DELETE FROM risk_limit WHERE channel = ? OR entity_id = ?", channel, entity);
    }

    @Test
    void authorizationsAndIncrementsSayWhatTheKeyCouldStillTakeAtEveryScopeAndAReplaySaysTheSame() {
        // key: txn 5,000; 24h 10,000 / 10; 7d 50,000 / 50; 30d 90,000 / 90. entity: 24h 7,500 / 3
        insertLimit("key", channel, null, "txn", 5_000, 0);
        insertLimit("key", channel, null, "24h", 10_000, 10);
        insertLimit("key", channel, null, "7d", 50_000, 50);
        insertLimit("key", channel, null, "30d", 90_000, 90);
        insertLimit("entity", "*", entity, "24h", 7_500, 3);
        UUID hold = UUID.randomUUID();
        UUID rejected = UUID.randomUUID();
        UUID increment = UUID.randomUUID();
        Map<String, Object> authorization = Events.event(hold, entity, channel, "OUT", 3_000);
        authorization.put(
                "hold_expires_at", Instant.now().plus(1, ChronoUnit.DAYS).toString());
        Map<String, Object> incrementEvent = Events.event(increment, entity, channel, "OUT", 1_000);
        incrementEvent.put("type", "INCREMENT");
        incrementEvent.put("original", hold.toString());
        RunningService.Topics topics = RunningService.Topics.unique();

        try (RunningService service = RunningService.start(topics, Map.of());
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            send(producer, topics, Events.json(authorization));
            send(producer, topics, Events.json(Events.event(rejected, entity, channel, "OUT", 6_000)));
            send(producer, topics, Events.json(incrementEvent));
            send(producer, topics, Events.json(authorization));
            List<DecisionMessage> all = decisions(topics, 4);

            DecisionMessage approved = first(all, hold, false);
            assertThat(approved.decision()).isEqualTo("APPROVED");
            // after it: key 24h 3,000 / 1, entity 24h 3,000 / 1; the entity's 7,500 - 3,000 binds; counts
            // left: key 9, 49, 89, entity 2
            assertThat(approved.json().get("available"))
                    .as("available after the approval")
                    .isEqualTo(available(4_500, 2, "entity", "24h"));

            DecisionMessage overTheCap = first(all, rejected, false);
            assertThat(overTheCap.reason()).isEqualTo("LIMIT_TXN_AMOUNT");
            // counted nothing: as after the approval
            assertThat(overTheCap.json().get("available"))
                    .as("available after the rejection")
                    .isEqualTo(available(4_500, 2, "entity", "24h"));

            DecisionMessage incremented = first(all, increment, false);
            assertThat(incremented.decision()).isEqualTo("APPROVED");
            assertThat(incremented
                            .json()
                            .get("scopes")
                            .get("entity")
                            .get("usage")
                            .get("24h"))
                    .as("the increment's entity scope, checked and reported")
                    .isEqualTo(JSON.readTree("{\"amount\":3000,\"count\":1}"));
            // counts its 1,000 and no count: entity 7,500 - 4,000
            assertThat(incremented.json().get("available"))
                    .as("available after the increment")
                    .isEqualTo(available(3_500, 2, "entity", "24h"));

            DecisionMessage replay = first(all, hold, true);
            assertThat(replay.withoutReplayedFlag()).isEqualTo(approved.withoutReplayedFlag());
        }
    }

    /**
     * America/New_York left daylight saving time at 2026-11-01T06:00Z. A decision at 14:30Z that day is in a
     * day that began at midnight EDT (04:00Z) and ends at midnight EST: 2026-11-02T05:00Z, 25 hours later; the
     * week (from Monday 2026-10-26) ends then too, and the month at 2026-12-01T05:00Z. The decider's database
     * clock says 14:30Z that day ({@link #databaseClockAt}).
     */
    @Test
    void aCalendarWindowInNewYorkResetsAtTheNextLocalMidnightAcrossTheEndOfDaylightSavingTime() {
        insertLimit("key", channel, null, "day", 10_000, 5);
        insertLimit("key", channel, null, "week", 30_000, 20);
        insertLimit("key", channel, null, "month", 80_000, 60);
        insertLimit("entity", "*", entity, "day", 20_000, 10);
        Instant decidedAt = Instant.parse("2026-11-01T14:30:00Z");
        UUID dedupeId = UUID.randomUUID();
        Map<String, Object> authorization = Events.event(dedupeId, entity, channel, "OUT", 2_000);
        authorization.put("occurred_at", decidedAt.minusSeconds(60).toString());
        RunningService.Topics topics = RunningService.Topics.unique();

        try (DatabaseClockAt clock = databaseClockAt(decidedAt);
                RunningService service = RunningService.start(topics, clock.settings("America/New_York"));
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            send(producer, topics, Events.json(authorization));
            send(producer, topics, Events.json(authorization));
            List<DecisionMessage> both = decisions(topics, 2);

            DecisionMessage decided = first(both, dedupeId, false);
            assertThat(decided.json().get("bucket_ts").stringValue()).isEqualTo("2026-11-01T14:00:00Z");
            JsonNode usage = decided.json().get("usage");
            assertThat(usage.get("day").path("resets_at").asString("absent"))
                    .as("the day's reset")
                    .isEqualTo("2026-11-02T05:00:00Z");
            assertThat(usage.get("week").path("resets_at").asString("absent")).isEqualTo("2026-11-02T05:00:00Z");
            assertThat(usage.get("month").path("resets_at").asString("absent")).isEqualTo("2026-12-01T05:00:00Z");
            assertThat(usage.get("24h").has("resets_at"))
                    .as("a rolling window never resets")
                    .isFalse();
            assertThat(decided.json()
                            .get("scopes")
                            .get("entity")
                            .get("usage")
                            .get("day")
                            .path("resets_at")
                            .asString("absent"))
                    .as("the entity's day")
                    .isEqualTo("2026-11-02T05:00:00Z");
            assertThat(decided.json().get("available"))
                    .as("available: the day's 10,000 - 2,000 binds, its 5 - 1 the count")
                    .isEqualTo(available(8_000, 4, "key", "day"));
            assertThat(db.queryForObject(
                            "SELECT usage::text FROM risk_request_log WHERE entity_id = ? AND dedupe_id = ?",
                            String.class,
                            entity,
                            dedupeId))
                    .as("stored with the usage, for the replays")
                    .contains("\"resets_at\":\"2026-11-02T05:00:00Z\"");
            DecisionMessage replay = first(both, dedupeId, true);
            assertThat(replay.withoutReplayedFlag()).isEqualTo(decided.withoutReplayedFlag());
        } finally {
            db.update("DELETE FROM risk_request_log WHERE entity_id = ?", entity);
            db.update("DELETE FROM risk_hourly_chunk WHERE entity_id = ?", entity);
            db.update("DELETE FROM risk_scope_hourly_chunk WHERE owner_id = ?", entity);
        }
    }

    /**
     * A database clock for a service of its own: its connections find, first on their search path, a schema
     * of this test's whose lock functions take the locks through the real ones and answer the given time,
     * which the decider decides at (its hour is the bucket). Everything else is the real schema's; the
     * migrations run on a connection without it.
     */
    private DatabaseClockAt databaseClockAt(Instant now) {
        String schema = "headroom_clock_" + UUID.randomUUID().toString().replace("-", "");
        db.execute("CREATE SCHEMA " + schema);
        db.execute(DecisionTimeFunctions.create(schema, "'" + now + "'"));
        return new DatabaseClockAt(schema, db);
    }

    private record DatabaseClockAt(String schema, JdbcTemplate db) implements AutoCloseable {

        Map<String, Object> settings(String timeZone) {
            TestInfrastructure infrastructure = TestInfrastructure.get();
            String url = infrastructure.jdbcUrl();
            return Map.of(
                    "spring.datasource.url",
                    url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema + ",public",
                    "spring.flyway.url",
                    url,
                    "spring.flyway.user",
                    infrastructure.username(),
                    "spring.flyway.password",
                    infrastructure.password(),
                    "risk.limits.time-zone",
                    timeZone);
        }

        @Override
        public void close() {
            db.execute("DROP SCHEMA " + schema + " CASCADE");
        }
    }

    private static List<DecisionMessage> decisions(RunningService.Topics topics, int count) {
        return TestKafka.readAtLeast(topics.decisions(), count, Duration.ofSeconds(60)).stream()
                .map(DecisionMessage::of)
                .toList();
    }

    private void insertLimit(String scope, String limitChannel, UUID owner, String window, long amount, long count) {
        db.update(
                "INSERT INTO risk_limit (scope, channel, direction, entity_id, window_name, max_amount, max_count)"
                        + " VALUES (?, ?, 'OUT', ?, ?, ?, ?)",
                scope,
                limitChannel,
                owner,
                window,
                amount,
                count);
    }

    private static JsonNode available(long amount, long count, String scope, String window) {
        return JSON.readTree("{\"amount\":%d,\"count\":%d,\"scope\":\"%s\",\"window\":\"%s\"}"
                .formatted(amount, count, scope, window));
    }

    private static DecisionMessage first(List<DecisionMessage> messages, UUID dedupeId, boolean replayed) {
        return messages.stream()
                .filter(message -> message.dedupeId().equals(dedupeId.toString()) && message.replayed() == replayed)
                .findFirst()
                .orElseThrow(
                        () -> new AssertionError("no " + (replayed ? "replayed " : "") + "decision of " + dedupeId));
    }

    private void send(KafkaProducer<byte[], byte[]> producer, RunningService.Topics topics, byte[] value) {
        TestKafka.send(producer, topics.transactions(), null, Events.businessKey(entity, channel, "OUT"), value);
    }
}
