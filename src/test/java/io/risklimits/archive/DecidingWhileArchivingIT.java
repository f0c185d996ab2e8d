package io.risklimits.archive;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.DecisionMessage;
import io.risklimits.support.Events;
import io.risklimits.support.HourBoundary;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The decider at full speed while the archiver deletes a large backlog past retention from the same
 * tables: every decision stays correct and the archiver deletes exactly the old rows.
 */
class DecidingWhileArchivingIT {

    private static final int EVENTS = 4000;
    private static final int ENTITIES = 8;
    private static final int MAX_COUNT_24H = 300;
    private static final int OLD_KEYS = 500;
    private static final int OLD_HOURS = 48;

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final String channel =
            "DWA_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();

    @Test
    void decisionsStayCorrectAndOnlyOldRowsGo() {
        HourBoundary.awaitClearOfTheNextHour(Duration.ofSeconds(90));
        LocalDateTime cutoff = db.queryForObject(
                "SELECT date_trunc('hour', (now() AT TIME ZONE 'UTC') - interval '32 days')", LocalDateTime.class);
        LocalDateTime start = cutoff.minusHours(OLD_HOURS);
        db.update("DELETE FROM risk_archive_lease");
        db.update("DELETE FROM risk_hourly_agg WHERE bucket_ts >= ? AND bucket_ts < ?", start, cutoff);
        db.update("DELETE FROM risk_request_log WHERE bucket_ts >= ? AND bucket_ts < ?", start, cutoff);
        db.update("DELETE FROM risk_keyless_request_log WHERE bucket_ts >= ? AND bucket_ts < ?", start, cutoff);
        int oldRows = db.update("""
                INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
                SELECT entity_id, ?, 'OUT', ?::timestamp + make_interval(hours => hour), 100, 1
                FROM (SELECT gen_random_uuid() AS entity_id FROM generate_series(1, ?)) AS entity,
                     generate_series(0, ? - 1) AS hour
                """, channel + "_OLD", start, OLD_KEYS, OLD_HOURS);
        db.update("DELETE FROM risk_archive_cursor");
        db.update("INSERT INTO risk_archive_cursor (cursor_ts) VALUES (?)", start);
        db.update(
                "INSERT INTO risk_limit (channel, direction, entity_id, window_name, max_amount, max_count)"
                        + " VALUES (?, '*', NULL, '24h', 100000000, ?)",
                channel,
                MAX_COUNT_24H);

        RunningService.Topics topics = RunningService.Topics.unique();
        List<DecisionMessage> messages;
        String archiveResult;
        try (RunningService service = RunningService.start(topics, Map.of("risk.archiver.workers", 9));
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            UUID commandId = UUID.randomUUID();
            Set<String> sent = new HashSet<>();
            List<Future<RecordMetadata>> sends = new ArrayList<>();
            Random random = new Random(3);
            List<UUID> entities = new ArrayList<>();
            for (int i = 0; i < ENTITIES; i++) {
                entities.add(UUID.randomUUID());
            }
            for (int i = 0; i < EVENTS; i++) {
                if (i == EVENTS / 10) {
                    sends.add(producer.send(new ProducerRecord<>(
                            topics.archiveCommands(),
                            ("{\"command_id\": \"" + commandId + "\", \"window_minutes\": 60}")
                                    .getBytes(StandardCharsets.UTF_8))));
                }
                UUID entity = entities.get(random.nextInt(ENTITIES));
                UUID dedupeId = UUID.randomUUID();
                sends.add(producer.send(new ProducerRecord<>(
                        topics.transactions(),
                        TestKafka.utf8(Events.businessKey(entity, channel, "OUT")),
                        Events.json(Events.event(dedupeId, entity, channel, "OUT", 1 + random.nextInt(1000))))));
                sent.add(dedupeId.toString());
            }
            TestKafka.confirm(sends);
            messages = TestKafka.readUntil(
                            topics.decisions(),
                            Duration.ofSeconds(120),
                            records -> records.stream()
                                    .map(record -> DecisionMessage.of(record).dedupeId())
                                    .collect(Collectors.toSet())
                                    .containsAll(sent))
                    .stream()
                    .map(DecisionMessage::of)
                    .toList();
            archiveResult = new String(
                    TestKafka.readAtLeast(topics.archiveResults(), 1, Duration.ofSeconds(120))
                            .get(0)
                            .value(),
                    StandardCharsets.UTF_8);
        }

        assertThat(archiveResult).contains("\"status\":\"COMPLETED\"").contains("\"deleted_agg_rows\":" + oldRows);
        assertThat(db.queryForObject(
                        "SELECT count(*) FROM risk_hourly_agg WHERE channel_code = ?", Long.class, channel + "_OLD"))
                .isZero();
        assertThat(db.queryForObject(
                        "SELECT count(*) FROM risk_request_log WHERE channel_code = ?", Long.class, channel))
                .isEqualTo(EVENTS);
        messages.stream()
                .collect(Collectors.groupingBy(DecisionMessage::dedupeId))
                .values()
                .forEach(copies -> assertThat(copies)
                        .extracting(DecisionMessage::withoutReplayedFlag)
                        .containsOnly(copies.get(0).withoutReplayedFlag()));
        assertThat(db.queryForList("""
                SELECT entity_id::text FROM risk_request_log
                WHERE channel_code = ? AND decision = 'APPROVED'
                GROUP BY entity_id HAVING count(*) > ?
                """, String.class, channel, MAX_COUNT_24H))
                .as("keys over their 24h count")
                .isEmpty();
        assertThat(db.queryForList("""
                SELECT coalesce(agg.entity_id, audit.entity_id)::text
                FROM (SELECT entity_id, bucket_ts, sum_amount, tx_count FROM risk_hourly_agg WHERE channel_code = ?) AS agg
                FULL JOIN (SELECT entity_id, bucket_ts, sum(amount) AS sum_amount, count(*) AS tx_count
                           FROM risk_request_log WHERE channel_code = ? AND decision = 'APPROVED'
                           GROUP BY entity_id, bucket_ts) AS audit
                       ON (agg.entity_id, agg.bucket_ts) = (audit.entity_id, audit.bucket_ts)
                WHERE agg.sum_amount IS DISTINCT FROM audit.sum_amount OR agg.tx_count IS DISTINCT FROM audit.tx_count
                """, String.class, channel, channel))
                .as("buckets that differ from the approved audit rows")
                .isEmpty();
        assertThat(db.queryForObject(
                        "SELECT count(*) FROM risk_request_log WHERE channel_code = ? AND decision = 'REJECTED'",
                        Long.class,
                        channel))
                .as("rejections (the limit must bite)")
                .isPositive();
    }
}
