package io.risklimits.archive;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.ArchiveWindows;
import io.risklimits.support.DecidedChannel;
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
        int oldRows = backlogPastRetention();
        db.update(
                "INSERT INTO risk_limit (channel, direction, entity_id, window_name, max_amount, max_count)"
                        + " VALUES (?, '*', NULL, '24h', 100000000, ?)",
                channel,
                MAX_COUNT_24H);

        Run run = decideWhileArchiving();

        assertThat(run.archiveResult())
                .contains("\"status\":\"COMPLETED\"")
                .contains("\"deleted_agg_rows\":" + oldRows);
        assertThat(db.queryForObject(
                        "SELECT count(*) FROM risk_hourly_agg WHERE channel_code = ?", Long.class, channel + "_OLD"))
                .isZero();
        assertThat(db.queryForObject(
                        "SELECT count(*) FROM risk_request_log WHERE channel_code = ?", Long.class, channel))
                .isEqualTo(EVENTS);
        new DecidedChannel(db, channel).assertDecidedConsistently(run.messages(), MAX_COUNT_24H);
    }

    /** What the run read back: every decision on the topic, and the archive command's result. */
    private record Run(List<DecisionMessage> messages, String archiveResult) {}

    /**
     * Hour buckets of keys of their own, {@code OLD_HOURS} hours of them just past retention, with the
     * archive cursor at their first hour and nothing else in that range; returns how many.
     */
    private int backlogPastRetention() {
        LocalDateTime cutoff = ArchiveWindows.cutoff(db);
        LocalDateTime start = cutoff.minusHours(OLD_HOURS);
        db.update("DELETE FROM risk_archive_lease");
        ArchiveWindows.clear(db, start, cutoff);
        int oldRows = db.update("""
                INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
                SELECT entity_id, ?, 'OUT', ?::timestamp + make_interval(hours => hour), 100, 1
                FROM (SELECT gen_random_uuid() AS entity_id FROM generate_series(1, ?)) AS entity,
                     generate_series(0, ? - 1) AS hour
                """, channel + "_OLD", start, OLD_KEYS, OLD_HOURS);
        db.update("DELETE FROM risk_archive_cursor");
        db.update("INSERT INTO risk_archive_cursor (cursor_ts) VALUES (?)", start);
        return oldRows;
    }

    /**
     * Sends the stream with one archive command a tenth of the way in, to a service with nine archiver
     * workers, and reads back every decision and the command's result.
     */
    private Run decideWhileArchiving() {
        RunningService.Topics topics = RunningService.Topics.unique();
        try (RunningService service = RunningService.start(topics, Map.of("risk.archiver.workers", 9));
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            Set<String> sent = sendWithAnArchiveCommand(producer, topics);
            List<DecisionMessage> messages =
                    DecisionMessage.readUntilAllDecided(topics.decisions(), sent, Duration.ofSeconds(120));
            String archiveResult = new String(
                    TestKafka.readAtLeast(topics.archiveResults(), 1, Duration.ofSeconds(120))
                            .get(0)
                            .value(),
                    StandardCharsets.UTF_8);
            return new Run(messages, archiveResult);
        }
    }

    /** Sends {@code EVENTS} authorizations over {@code ENTITIES} keys; returns their dedupe_ids. */
    private Set<String> sendWithAnArchiveCommand(KafkaProducer<byte[], byte[]> producer, RunningService.Topics topics) {
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
        return sent;
    }
}
