package io.risklimits.bench;

import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Rows deleted per second by the archiver on a few million rows past retention, and decision latency
 * at a fixed rate with and without the archiver deleting at the same time. Part of
 * {@code ./mvnw -B verify -Pbenchmark}, not of its quick run; -Dbench.archive.keys and -Dbench.archive.hours size the
 * old data (default 10,000 keys x 300 hours = 3 million buckets and as many audit rows).
 */
class ArchiverBenchmark {

    private static final int KEYS = Integer.getInteger("bench.archive.keys", 10_000);
    private static final int HOURS = Integer.getInteger("bench.archive.hours", 300);
    private static final double RATE = Double.parseDouble(System.getProperty("bench.archive.rate", "1000"));
    private static final int LATENCY_SECONDS = 10;

    private final TestInfrastructure infrastructure = TestInfrastructure.get();
    private final JdbcTemplate db = new JdbcTemplate(infrastructure.dataSource());

    @Test
    void rowsDeletedPerSecondAndDecisionLatencyWhileDeleting() throws Exception {
        // the quick run answers for the decider alone, within its ten minutes
        Assumptions.assumeFalse(Boolean.getBoolean("bench.quick"), "not part of the quick run (-Dbench.quick)");
        // the archiver's cutoff under the default risk.retention (32 days)
        LocalDateTime cutoff = db.queryForObject(
                "SELECT date_trunc('hour', (now() AT TIME ZONE 'UTC') - interval '32 days')", LocalDateTime.class);
        long rows = loadOldRows(cutoff.minusHours(HOURS));
        db.update("DELETE FROM risk_archive_cursor");
        db.update("DELETE FROM risk_archive_lease");
        db.update("INSERT INTO risk_archive_cursor (cursor_ts) VALUES (?)", cutoff.minusHours(HOURS));
        db.execute("VACUUM ANALYZE risk_hourly_chunk");
        db.execute("VACUUM ANALYZE risk_request_log");

        RunningService.Topics topics = RunningService.Topics.unique();
        BenchmarkKeys keys = BenchmarkKeys.random(1_000);
        try (BenchmarkKafka kafka = new BenchmarkKafka(infrastructure.bootstrapServers(), 12);
                LoadDriver driver = new LoadDriver(infrastructure.bootstrapServers())) {
            kafka.createTopics(topics);
            DecisionLog decisions = new DecisionLog(infrastructure.bootstrapServers());
            EventStream stream = new EventStream(Scenario.SHALLOW_HISTORY, keys, 7);
            try (RunningService service = RunningService.start(topics, Map.of())) {
                latency(kafka, driver, decisions, topics, stream); // warm-up
                Latencies quiet = latency(kafka, driver, decisions, topics, stream);

                long started = System.nanoTime();
                CompletableFuture<Void> archive = CompletableFuture.runAsync(() -> sendArchiveCommand(topics));
                Latencies busy = latency(kafka, driver, decisions, topics, stream);
                archive.join();
                long remaining = awaitDeleted(cutoff, Duration.ofMinutes(20));
                double seconds = (System.nanoTime() - started) / 1e9;

                System.out.printf(
                        "Archiver: %d rows past retention (both tables) deleted in %.1f s: %.0f rows/s"
                                + " (9 workers, 180-minute windows; %d left)%n",
                        rows, seconds, rows / seconds, remaining);
                System.out.printf(
                        "Archiver: decisions at %.0f/s without the archiver: p50 %d ms, p99 %d ms, max %d ms%n",
                        RATE, quiet.percentileMillis(0.5), quiet.percentileMillis(0.99), quiet.maxMillis());
                System.out.printf(
                        "Archiver: decisions at %.0f/s while it deletes:    p50 %d ms, p99 %d ms, max %d ms%n",
                        RATE, busy.percentileMillis(0.5), busy.percentileMillis(0.99), busy.maxMillis());
            }
        }
    }

    /**
     * Old buckets and audit rows for KEYS keys, one per key and hour, before the cutoff: the buckets in
     * chunks of 24 hours (V13), each chunk's totals from zero (running totals do not matter past retention).
     */
    private long loadOldRows(LocalDateTime from) {
        int buckets = db.queryForObject("""
                WITH written AS (
                    INSERT INTO risk_hourly_chunk (entity_id, channel_code, direction_code, first_ts, hours, sums, counts,
                                                   amount_before, count_before, running_amount, running_count, rewrites)
                    SELECT entity_id, 'ARCHIVE_BENCH', 'OUT', min(bucket_ts),
                           array_agg(CAST(extract(epoch FROM bucket_ts) / 3600 AS integer) ORDER BY bucket_ts),
                           array_agg(CAST(100 AS bigint)), array_agg(1), 0, 0, 100 * count(*), count(*), 0
                    FROM (SELECT entity.entity_id, ?::timestamp + make_interval(hours => hour) AS bucket_ts,
                                 hour / 24 AS chunk
                          FROM (SELECT gen_random_uuid() AS entity_id FROM generate_series(1, ?)) AS entity,
                               generate_series(0, ? - 1) AS hour) AS bucket
                    GROUP BY entity_id, chunk
                    RETURNING cardinality(hours) AS buckets
                )
                SELECT CAST(sum(buckets) AS integer) FROM written
                """, Integer.class, from, KEYS, HOURS);
        int log = db.update("""
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, decided_at)
                SELECT chunk.entity_id, 'ARCHIVE_BENCH', 'OUT', gen_random_uuid(), risk_hour_ts(bucket.hour), 'APPROVED',
                       100, 'USD', risk_hour_ts(bucket.hour)
                FROM risk_hourly_chunk chunk
                CROSS JOIN LATERAL unnest(chunk.hours) AS bucket (hour)
                WHERE chunk.channel_code = 'ARCHIVE_BENCH'
                """);
        return (long) buckets + log;
    }

    private Latencies latency(
            BenchmarkKafka kafka,
            LoadDriver driver,
            DecisionLog decisions,
            RunningService.Topics topics,
            EventStream stream) {
        int events = (int) (RATE * LATENCY_SECONDS);
        Map<TopicPartition, Long> before = kafka.endOffsets(topics.decisions());
        Map<String, Long> scheduled = driver.produceAtRate(topics.transactions(), stream.next(events), RATE);
        kafka.awaitRecords(topics.decisions(), before, events, Duration.ofMinutes(5));
        Map<String, DecisionLog.Appended> decided = decisions.read(before, scheduled.keySet(), Duration.ofMinutes(5));
        return new Latencies(decided.entrySet().stream()
                .mapToLong(entry -> entry.getValue().appendedMillis() - scheduled.get(entry.getKey()))
                .toArray());
    }

    private void sendArchiveCommand(RunningService.Topics topics) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                "bootstrap.servers", infrastructure.bootstrapServers(),
                "key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer",
                "value.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer"))) {
            String command = "{\"command_id\": \"" + UUID.randomUUID() + "\", \"window_minutes\": 180}";
            producer.send(new ProducerRecord<>(topics.archiveCommands(), command.getBytes()))
                    .get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private long awaitDeleted(LocalDateTime cutoff, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            LocalDateTime cursor = db.queryForObject("SELECT cursor_ts FROM risk_archive_cursor", LocalDateTime.class);
            if (!cursor.isBefore(cutoff)) {
                break;
            }
            Thread.sleep(200);
        }
        return db.queryForObject(
                "SELECT coalesce(sum(cardinality(hours)), 0) FROM risk_hourly_chunk WHERE channel_code = 'ARCHIVE_BENCH'",
                Long.class);
    }
}
