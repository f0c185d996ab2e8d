package io.risklimits.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.risklimits.support.ArchiveWindows;
import io.risklimits.support.Events;
import io.risklimits.support.HourBoundary;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * After a known stream (two approvals, a rejection, a replay, an invalid event, an unreadable record
 * and one archive command) the Prometheus endpoint reports exactly those counts, and health reports
 * PostgreSQL and Kafka. A fresh service has its own registry, so every count is exact.
 */
class MetricsAndHealthIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final UUID entity = UUID.randomUUID();
    private final String key = Events.businessKey(entity, "CARD", "OUT");

    @Test
    void aKnownStreamShowsUpInTheMetricsAndHealthIsUp() throws Exception {
        db.update(
                "INSERT INTO risk_limit (channel, direction, entity_id, window_name, max_amount, max_count)"
                        + " VALUES ('CARD', 'OUT', ?, '24h', 1000000, 2)",
                entity);
        LocalDateTime cutoff = prepareOneOldRowThreeHoursBeforeTheCutoff();
        RunningService.Topics topics = RunningService.Topics.unique();

        try (RunningService service = RunningService.startServing(topics, Map.of());
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            await().atMost(PATIENCE)
                    .untilAsserted(() -> assertThat(scrape(service).value("risk_archiver_cursor_lag_seconds"))
                            .isEqualTo(3 * 3600));

            sendTheKnownStream(producer, topics);
            TestKafka.readAtLeast(topics.decisions(), 5, PATIENCE);
            TestKafka.readAtLeast(topics.deadLetter(), 2, PATIENCE);

            assertTheStreamsDecisionsAreCounted(service);
            assertTheArchiveRunIsCounted(service, producer, topics, cutoff);
            assertEveryDashboardMetricIsServedAndHealthIsUp(service);
        }
    }

    /** Two approvals, a rejection, a replay of the first, an invalid event and an unreadable record. */
    private void sendTheKnownStream(KafkaProducer<byte[], byte[]> producer, RunningService.Topics topics) {
        UUID first = UUID.randomUUID();
        send(producer, topics, event(first, 100));
        send(producer, topics, event(UUID.randomUUID(), 100));
        send(producer, topics, event(UUID.randomUUID(), 100)); // the third in 24 h: over the count of 2
        send(producer, topics, event(first, 100)); // a redelivery
        send(producer, topics, event(UUID.randomUUID(), 0)); // INVALID: amount below 1
        send(producer, topics, "not json".getBytes(StandardCharsets.UTF_8));
    }

    /** Each decision, dead letter, batch, lock wait and window-starts read of the stream, counted once. */
    private static void assertTheStreamsDecisionsAreCounted(RunningService service) {
        await().atMost(PATIENCE).untilAsserted(() -> {
            PrometheusScrape metrics = scrape(service);
            assertThat(decisions(metrics, "APPROVED", "none", false)).isEqualTo(2);
            assertThat(decisions(metrics, "REJECTED", "LIMIT_24H_COUNT", false)).isEqualTo(1);
            assertThat(decisions(metrics, "APPROVED", "none", true)).isEqualTo(1);
            assertThat(decisions(metrics, "INVALID", "INVALID_REQUEST", false)).isEqualTo(1);
            assertThat(metrics.value("risk_decisions_total")).isEqualTo(5);
            // the rejection was for a limit of the business key; no other decision names a scope
            assertThat(metrics.value("risk_decisions_total", Map.of("decision", "REJECTED", "scope", "key")))
                    .isEqualTo(1);
            assertThat(metrics.value("risk_decisions_total", Map.of("scope", "none")))
                    .isEqualTo(4);
            assertThat(metrics.value("risk_decider_dedupe_hits_total")).isEqualTo(1);
            assertThat(metrics.value("risk_dead_letters_total", Map.of("kind", "invalid")))
                    .isEqualTo(1);
            assertThat(metrics.value("risk_dead_letters_total", Map.of("kind", "unreadable")))
                    .isEqualTo(1);
            assertThat(metrics.value("risk_decision_latency_seconds_count")).isEqualTo(5);
            assertThat(metrics.value("risk_decision_latency_seconds_bucket", Map.of("le", "+Inf")))
                    .isEqualTo(5);
            // the four readable, valid events were decided in batches (the replay among them)
            assertThat(metrics.value("risk_decider_batch_size_events_sum")).isEqualTo(4);
            // at least one batch and the invalid event each took their locks
            assertThat(metrics.value("risk_decider_lock_wait_seconds_count")).isGreaterThanOrEqualTo(2);
            // each batch was one timed transaction, and two when it met the redelivery (decided
            // again with the stored decisions read; not when the first delivery was in the same
            // batch), and the poll of each waited for its sends
            double batches = metrics.value("risk_decider_batch_size_events_count");
            assertThat(batches).isGreaterThanOrEqualTo(1);
            double decidedAgain = metrics.value("risk_decider_batch_replay_retries_total");
            assertThat(decidedAgain).isBetween(0.0, 1.0);
            assertThat(metrics.value("risk_decider_transaction_duration_seconds_count"))
                    .isEqualTo(batches + decidedAgain);
            assertThat(metrics.value("risk_decider_publish_wait_seconds_count")).isGreaterThanOrEqualTo(batches);
            // the batches' one key: its window starts read from the database once (once per hour at
            // most), then remembered, once per transaction; its entity, whose usage no limit checks, has
            // its latest bucket alone read, in every transaction with a valid event (one holding the
            // INVALID event alone locks and reads its key only)
            double startsRead = metrics.value("risk_decider_window_starts_total", Map.of("source", "read"));
            assertThat(startsRead).isGreaterThanOrEqualTo(1);
            double transactions = batches + decidedAgain;
            assertThat(startsRead + metrics.value("risk_decider_window_starts_total", Map.of("source", "remembered")))
                    .isEqualTo(transactions);
            assertThat(metrics.value("risk_decider_window_starts_total", Map.of("source", "unchecked")))
                    .isBetween(transactions - 1, transactions);
            assertThat(metrics.has("kafka_consumer_fetch_manager_records_lag_max"))
                    .as("consumer lag from the Kafka client's own metrics")
                    .isTrue();
        });
    }

    /** The archive command deletes the one old row of each table, and the cursor catches up. */
    private void assertTheArchiveRunIsCounted(
            RunningService service,
            KafkaProducer<byte[], byte[]> producer,
            RunningService.Topics topics,
            LocalDateTime cutoff) {
        JsonNode archived = archive(producer, topics);
        assertThat(archived.get("status").stringValue()).isEqualTo("COMPLETED");
        assertThat(db.queryForObject(
                        "SELECT count(*) FROM risk_hourly_agg WHERE entity_id = ? AND bucket_ts < ?",
                        Long.class,
                        entity,
                        cutoff))
                .isZero();
        await().atMost(PATIENCE).untilAsserted(() -> {
            PrometheusScrape metrics = scrape(service);
            assertThat(metrics.value("risk_archiver_commands_total", Map.of("status", "COMPLETED")))
                    .isEqualTo(1);
            assertThat(metrics.value("risk_archiver_deleted_rows_total", Map.of("table", "risk_hourly_agg")))
                    .isEqualTo(1);
            assertThat(metrics.value("risk_archiver_deleted_rows_total", Map.of("table", "risk_request_log")))
                    .isEqualTo(1);
            assertThat(metrics.value("risk_archiver_cursor_lag_seconds")).isZero();
        });
    }

    private static void assertEveryDashboardMetricIsServedAndHealthIsUp(RunningService service) throws Exception {
        PrometheusScrape metrics = scrape(service);
        assertThat(dashboardMetricNames())
                .as("every metric the Grafana dashboard queries is served")
                .isNotEmpty()
                .allSatisfy(name -> assertThat(metrics.has(name)).as(name).isTrue());

        JsonNode health = health(service);
        assertThat(health.at("/status").stringValue()).isEqualTo("UP");
        assertThat(health.at("/components/db/status").stringValue()).isEqualTo("UP");
        assertThat(health.at("/components/kafka/status").stringValue()).isEqualTo("UP");
        assertThat(health.at("/components/kafka/details/listeners/risk-decider").booleanValue())
                .isTrue();
    }

    /** Like ArchiverIT: the cursor 3 h before the cutoff, and only this test's rows in between. */
    private LocalDateTime prepareOneOldRowThreeHoursBeforeTheCutoff() {
        HourBoundary.awaitClearOfTheNextHour(Duration.ofSeconds(120));
        LocalDateTime cutoff = ArchiveWindows.cutoff(db);
        LocalDateTime from = cutoff.minusHours(3);
        db.update("DELETE FROM risk_archive_lease");
        ArchiveWindows.clear(db, from, cutoff);
        db.update(
                "INSERT INTO risk_archive_cursor (cursor_ts) VALUES (?)"
                        + " ON CONFLICT (singleton) DO UPDATE SET cursor_ts = EXCLUDED.cursor_ts",
                from);
        LocalDateTime old = cutoff.minusHours(2);
        db.update(
                "INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)"
                        + " VALUES (?, 'CARD', 'OUT', ?, 100, 1)",
                entity,
                old);
        db.update(
                "INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,"
                        + " decision, amount, currency, decided_at) VALUES (?, 'CARD', 'OUT', ?, ?, 'APPROVED', 100,"
                        + " 'USD', now())",
                entity,
                UUID.randomUUID(),
                old);
        return cutoff;
    }

    private static double decisions(PrometheusScrape metrics, String decision, String reason, boolean replayed) {
        return metrics.value(
                "risk_decisions_total",
                Map.of("decision", decision, "reason", reason, "replayed", Boolean.toString(replayed)));
    }

    private byte[] event(UUID dedupeId, long amount) {
        return Events.json(Events.event(dedupeId, entity, "CARD", "OUT", amount));
    }

    private void send(KafkaProducer<byte[], byte[]> producer, RunningService.Topics topics, byte[] value) {
        TestKafka.send(producer, topics.transactions(), null, key, value);
    }

    private static JsonNode archive(KafkaProducer<byte[], byte[]> producer, RunningService.Topics topics) {
        TestKafka.awaitLeaders(java.util.List.of(topics.archiveCommands(), topics.archiveResults()));
        String command = "{\"command_id\": \"" + UUID.randomUUID() + "\", \"window_minutes\": 60}";
        TestKafka.send(producer, topics.archiveCommands(), null, null, command.getBytes(StandardCharsets.UTF_8));
        return JSON.readTree(TestKafka.readAtLeast(topics.archiveResults(), 1, PATIENCE)
                .get(0)
                .value());
    }

    private static Set<String> dashboardMetricNames() throws Exception {
        String dashboard = Files.readString(Path.of("docs/grafana/risk-limits.json"));
        Matcher name =
                Pattern.compile("\\b((?:risk|kafka_consumer)_[a-z_]+)\\b").matcher(dashboard);
        Set<String> names = new TreeSet<>();
        while (name.find()) {
            names.add(name.group(1));
        }
        return names;
    }

    private static PrometheusScrape scrape(RunningService service) {
        return PrometheusScrape.of(service.baseUrl());
    }

    private static JsonNode health(RunningService service) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(service.baseUrl() + "/actuator/health"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return JSON.readTree(response.body());
    }
}
