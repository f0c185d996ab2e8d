package io.risklimits.decider;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.ReferenceModel;
import io.risklimits.decision.ReferenceModel.Cap;
import io.risklimits.support.ConsumerGroup;
import io.risklimits.support.DecisionMessage;
import io.risklimits.support.Events;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.OwnRows;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One business key on all twelve partitions, decided at once by three services of one consumer group
 * with four consumer threads each. Partitioning gives no ordering here: only the database lock
 * serializes the decisions. No window may end above its limit, the hourly aggregates must equal the
 * approved audit rows, and every event must be decided exactly once.
 */
@ExtendWith(NoRowsLeftBehind.class)
class OneKeyManyPartitionsRaceIT {

    private static final int PARTITIONS = 12;
    private static final int SERVICES = 3;
    private static final int CONSUMER_THREADS_PER_SERVICE = 4;
    private static final int EVENTS = 480;
    private static final int MAX_AMOUNT_PER_EVENT = 1_000;
    private static final String CHANNEL = "CARD";
    private static final String DIRECTION = "OUT";

    // about 150 approvals before either the 24h count or the 7d amount bites: long enough for
    // every consumer thread to be deciding while there is still room under the limits
    private static final Map<String, Cap> CAPS = Map.of(
            "24h", new Cap(1_000_000_000L, 150),
            "7d", new Cap(75_000, 1_000),
            "30d", new Cap(1_000_000_000L, 1_000));

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final OwnRows rows = new OwnRows();
    private final UUID entity = rows.newEntity();

    record Total(long amount, long count) {

        Total plus(Total other) {
            return new Total(amount + other.amount, count + other.count);
        }
    }

    record AuditRow(String dedupeId, String decision, long amount, LocalDateTime bucket) {}

    @AfterEach
    void deleteTheirRowsAndLimits() {
        rows.deleteTheirRows(db);
        db.update("DELETE FROM risk_limit WHERE entity_id = ?", entity);
    }

    @Test
    void concurrentDecisionsOfOneKeyKeepEveryLimitAndEveryTotal() throws Exception {
        insertLimitsForEntity();
        RunningService.Topics topics = RunningService.Topics.unique();
        createTransactionsTopic(topics);
        Set<String> sent = sendToEveryPartition(topics);

        try (ConsumerGroup group =
                ConsumerGroup.startPaused(topics, SERVICES, CONSUMER_THREADS_PER_SERVICE, Map.of())) {
            group.startConsumingTogether();
            List<DecisionMessage> messages = readDecisionsOf(sent, topics);
            List<AuditRow> audit = auditRows();

            assertEveryEventDecidedOnce(sent, messages, audit);
            assertNoWindowAboveItsLimit(audit);
            assertHourlyAggregatesEqualApprovedAudit(audit);
            assertThat(audit.stream()
                            .filter(row -> row.decision().equals("REJECTED"))
                            .count())
                    .as("rejected events (the limits must bite)")
                    .isGreaterThan(EVENTS / 2);
        }
    }

    private void assertEveryEventDecidedOnce(Set<String> sent, List<DecisionMessage> messages, List<AuditRow> audit) {
        assertThat(audit).extracting(AuditRow::dedupeId).containsExactlyInAnyOrderElementsOf(sent);
        Map<String, String> decisionInAudit =
                audit.stream().collect(Collectors.toMap(AuditRow::dedupeId, AuditRow::decision));
        Map<String, List<DecisionMessage>> byDedupe =
                messages.stream().collect(Collectors.groupingBy(DecisionMessage::dedupeId));
        assertThat(byDedupe.keySet()).containsExactlyInAnyOrderElementsOf(sent);
        byDedupe.forEach((dedupeId, ofOneEvent) -> {
            DecisionMessage first = ofOneEvent.get(0);
            assertThat(first.decision()).as("decision of %s", dedupeId).isEqualTo(decisionInAudit.get(dedupeId));
            ofOneEvent.forEach(
                    message -> assertThat(message.withoutReplayedFlag()).isEqualTo(first.withoutReplayedFlag()));
            CAPS.forEach((window, cap) -> assertThat(
                            first.json().get("limits").get(window).get("count").longValue())
                    .as("%s count limit applied to %s", window, dedupeId)
                    .isEqualTo(cap.count()));
        });
    }

    private void assertNoWindowAboveItsLimit(List<AuditRow> audit) {
        TreeMap<LocalDateTime, Total> approved = approvedByBucket(audit);
        for (String window : ReferenceModel.ROLLING_WINDOWS) {
            Cap cap = CAPS.get(window);
            int hours = ReferenceModel.ROLLING_WINDOW_HOURS.get(window);
            // the fullest moment of a window is right after an approval, so check the window ending at each bucket
            for (LocalDateTime end : approved.keySet()) {
                Total used = approved.subMap(end.minusHours(hours - 1L), true, end, true).values().stream()
                        .reduce(new Total(0, 0), Total::plus);
                assertThat(used.count())
                        .as("%s count of APPROVED audit rows up to %s", window, end)
                        .isLessThanOrEqualTo(cap.count());
                assertThat(used.amount())
                        .as("%s amount of APPROVED audit rows up to %s", window, end)
                        .isLessThanOrEqualTo(cap.amount());
            }
        }
    }

    private void assertHourlyAggregatesEqualApprovedAudit(List<AuditRow> audit) {
        Map<LocalDateTime, Total> aggregates = new TreeMap<>();
        db.query(
                "SELECT bucket_ts, sum_amount, tx_count FROM risk_hourly_agg"
                        + " WHERE entity_id = ? AND channel_code = ? AND direction_code = ?",
                row -> {
                    aggregates.put(
                            row.getObject("bucket_ts", LocalDateTime.class),
                            new Total(row.getLong("sum_amount"), row.getLong("tx_count")));
                },
                entity,
                CHANNEL,
                DIRECTION);
        assertThat(aggregates)
                .as("risk_hourly_agg against the APPROVED audit rows")
                .isEqualTo(approvedByBucket(audit));
    }

    private static TreeMap<LocalDateTime, Total> approvedByBucket(List<AuditRow> audit) {
        TreeMap<LocalDateTime, Total> byBucket = new TreeMap<>();
        audit.stream()
                .filter(row -> row.decision().equals("APPROVED"))
                .forEach(row -> byBucket.merge(row.bucket(), new Total(row.amount(), 1), Total::plus));
        return byBucket;
    }

    private List<AuditRow> auditRows() {
        return db.query(
                "SELECT dedupe_id, decision, amount, bucket_ts FROM risk_request_log"
                        + " WHERE entity_id = ? AND channel_code = ? AND direction_code = ?",
                (row, rowNumber) -> new AuditRow(
                        row.getString("dedupe_id"),
                        row.getString("decision"),
                        row.getLong("amount"),
                        row.getObject("bucket_ts", LocalDateTime.class)),
                entity,
                CHANNEL,
                DIRECTION);
    }

    private void insertLimitsForEntity() {
        CAPS.forEach((window, cap) -> db.update(
                "INSERT INTO risk_limit (channel, direction, entity_id, window_name, max_amount, max_count)"
                        + " VALUES (?, ?, ?, ?, ?, ?)",
                CHANNEL,
                DIRECTION,
                entity,
                window,
                cap.amount(),
                cap.count()));
    }

    /** Created here rather than by the services, so that every event is on the topic before anyone consumes. */
    private static void createTransactionsTopic(RunningService.Topics topics)
            throws ExecutionException, InterruptedException {
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestInfrastructure.get().bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topics.transactions(), PARTITIONS, (short) 1)))
                    .all()
                    .get();
        }
        TestKafka.awaitLeaders(List.of(topics.transactions()));
    }

    /** The same record key on every partition, round robin, as a producer with a broken partitioner would send. */
    private Set<String> sendToEveryPartition(RunningService.Topics topics) {
        Random random = new Random(entity.getMostSignificantBits());
        byte[] recordKey = TestKafka.utf8(Events.businessKey(entity, CHANNEL, DIRECTION));
        Set<String> sent = new HashSet<>();
        List<Future<RecordMetadata>> sends = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            for (int i = 0; i < EVENTS; i++) {
                UUID dedupeId = UUID.randomUUID();
                long amount = 1 + random.nextInt(MAX_AMOUNT_PER_EVENT);
                byte[] payload = Events.json(Events.event(dedupeId, entity, CHANNEL, DIRECTION, amount));
                sends.add(
                        producer.send(new ProducerRecord<>(topics.transactions(), i % PARTITIONS, recordKey, payload)));
                sent.add(dedupeId.toString());
            }
            TestKafka.confirm(sends);
        }
        return sent;
    }

    private static List<DecisionMessage> readDecisionsOf(Set<String> sent, RunningService.Topics topics) {
        return DecisionMessage.readUntilAllDecided(topics.decisions(), sent, Duration.ofSeconds(45));
    }
}
