package io.risklimits.decider;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.ConsumerGroup;
import io.risklimits.support.DecisionMessage;
import io.risklimits.support.Events;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.OwnRows;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
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
 * Many business keys under one limit at a wider scope, their events on all twelve partitions under
 * random record keys (so the partitioning brings nothing of one scope key together), decided at once by
 * three services of one consumer group with four consumer threads each, sent once every thread holds a
 * partition, one event a poll (a poll of many events would take nearly every business key's lock and so
 * serialize the batches by those). Only the lock of the scope key serializes them: what the scope key
 * counts in the window never passes its limit, it is used up to within one event, its buckets equal the
 * approved audit rows, and every event is decided exactly once.
 *
 * <p>The scope key has history in the previous hour and none in this one, so the first events of every
 * consumer find no bucket of this hour to update and race to create it, its limit already most of the
 * way used.
 */
@ExtendWith(NoRowsLeftBehind.class)
class ScopeRaceIT {

    private static final int PARTITIONS = 12;
    private static final int SERVICES = 3;
    private static final int CONSUMER_THREADS_PER_SERVICE = 4;
    private static final int EVENTS = 480;
    private static final int KEYS = 8;
    private static final int MAX_AMOUNT_PER_EVENT = 1_000;
    private static final long LIMIT = 10_000;
    // counted in the previous hour: a handful of events fill the rest
    private static final long HISTORY = 8_000;
    private static final String DIRECTION = "OUT";

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final OwnRows rows = new OwnRows();
    // the account of the first test, the entity of the second: an entity's rows include its scope buckets
    private final UUID owner = rows.newEntity();
    private final List<UUID> entities = new ArrayList<>();
    private final String channel =
            "RACE_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();

    /** One event as sent: the business key it belongs to and the amount. */
    record Sent(UUID entity, String channel, String dedupeId, long amount) {}

    record AuditRow(String dedupeId, String decision, String reason, long amount) {}

    @AfterEach
    void deleteTheirRowsAndLimits() {
        rows.deleteTheirRows(db);
        db.update("DELETE FROM risk_limit WHERE account_id = ? OR entity_id = ?", owner, owner);
    }

    @Test
    void eightEntitiesOfOneAccountOnEveryPartitionNeverTogetherPassTheAccountsLimit() throws Exception {
        for (int i = 0; i < KEYS; i++) {
            entities.add(rows.newEntity());
        }
        db.update(
                "INSERT INTO risk_limit (scope, channel, direction, account_id, window_name, max_amount, max_count)"
                        + " VALUES ('account', '*', ?, ?, '24h', ?, 1000000)",
                DIRECTION,
                owner,
                LIMIT);
        Random random = new Random(owner.getMostSignificantBits());
        List<Sent> events = new ArrayList<>();
        for (int i = 0; i < EVENTS; i++) {
            events.add(new Sent(
                    entities.get(random.nextInt(KEYS)),
                    channel,
                    UUID.randomUUID().toString(),
                    1 + random.nextInt(MAX_AMOUNT_PER_EVENT)));
        }

        insertHistory("account", owner);

        List<AuditRow> audit = decideOnEveryPartition(events, owner);

        assertScopeKeptItsLimit(events, audit, "ACCOUNT_LIMIT_24H_AMOUNT");
        assertThat(scopeBucketSum("account", owner, "*"))
                .as("the account's buckets of this test's events against its approved audit rows")
                .containsExactly(approvedSum(audit));
    }

    @Test
    void eightChannelsOfOneEntityOnEveryPartitionNeverTogetherPassTheEntitysLimit() throws Exception {
        entities.add(owner);
        db.update(
                "INSERT INTO risk_limit (scope, channel, direction, entity_id, window_name, max_amount, max_count)"
                        + " VALUES ('entity', '*', ?, ?, '24h', ?, 1000000)",
                DIRECTION,
                owner,
                LIMIT);
        Random random = new Random(owner.getMostSignificantBits());
        List<Sent> events = new ArrayList<>();
        for (int i = 0; i < EVENTS; i++) {
            events.add(new Sent(
                    owner,
                    channel + "_" + random.nextInt(KEYS),
                    UUID.randomUUID().toString(),
                    1 + random.nextInt(MAX_AMOUNT_PER_EVENT)));
        }

        insertHistory("entity", owner);

        List<AuditRow> audit = decideOnEveryPartition(events, null);

        assertScopeKeptItsLimit(events, audit, "ENTITY_LIMIT_24H_AMOUNT");
        assertThat(scopeBucketSum("entity", owner, "*"))
                .as("the entity's buckets of this test's events against its approved audit rows")
                .containsExactly(approvedSum(audit));
    }

    /**
     * Starts the services, waits until each of their consumer threads holds a partition, then sends the
     * events round robin over every partition under random record keys, naming the account (or none),
     * and returns their audit rows once all are decided. The consumers all get their first event at once.
     */
    private List<AuditRow> decideOnEveryPartition(List<Sent> events, UUID account) throws Exception {
        RunningService.Topics topics = RunningService.Topics.unique();
        createTransactionsTopic(topics);
        Set<String> sent = events.stream().map(Sent::dedupeId).collect(Collectors.toCollection(HashSet::new));
        try (ConsumerGroup group = ConsumerGroup.startPaused(
                topics, SERVICES, CONSUMER_THREADS_PER_SERVICE, Map.of("spring.kafka.consumer.max-poll-records", 1))) {
            group.startConsumingTogether();
            group.awaitEveryConsumerAssigned();
            send(events, account, topics);
            List<DecisionMessage> messages =
                    DecisionMessage.readUntilAllDecided(topics.decisions(), sent, Duration.ofSeconds(90));
            List<AuditRow> audit = auditRows();
            assertEveryEventDecidedOnce(sent, messages, audit);
            return audit;
        }
    }

    private void send(List<Sent> events, UUID account, RunningService.Topics topics) {
        Random recordKeys = new Random(owner.getLeastSignificantBits());
        List<Future<RecordMetadata>> sends = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            for (int i = 0; i < events.size(); i++) {
                Sent event = events.get(i);
                byte[] payload = Events.json(Events.withAccount(
                        Events.event(
                                UUID.fromString(event.dedupeId()),
                                event.entity(),
                                event.channel(),
                                DIRECTION,
                                event.amount()),
                        account));
                byte[] wrongKey = TestKafka.utf8(new UUID(recordKeys.nextLong(), recordKeys.nextLong()).toString());
                sends.add(
                        producer.send(new ProducerRecord<>(topics.transactions(), i % PARTITIONS, wrongKey, payload)));
            }
            TestKafka.confirm(sends);
        }
    }

    private static void assertScopeKeptItsLimit(List<Sent> events, List<AuditRow> audit, String scopeReason) {
        long largest = events.stream().mapToLong(Sent::amount).max().orElseThrow();
        long used = HISTORY + approvedSum(audit)[0];
        assertThat(used)
                .as("history %d and approved total of the scope key, limit %d", HISTORY, LIMIT)
                .isLessThanOrEqualTo(LIMIT);
        assertThat(used)
                .as(
                        "history and approved total of the scope key: the limit used up to within the largest amount, %d",
                        largest)
                .isGreaterThan(LIMIT - largest);
        assertThat(audit).as("rejections for the scope's limit").anyMatch(row -> scopeReason.equals(row.reason()));
    }

    private static void assertEveryEventDecidedOnce(
            Set<String> sent, List<DecisionMessage> messages, List<AuditRow> audit) {
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
        });
    }

    /** {amount, count} of the approved audit rows. */
    private static long[] approvedSum(List<AuditRow> audit) {
        List<AuditRow> approved =
                audit.stream().filter(row -> row.decision().equals("APPROVED")).toList();
        return new long[] {approved.stream().mapToLong(AuditRow::amount).sum(), approved.size()};
    }

    /** One bucket of the scope key in the hour before the database's current hour. */
    private void insertHistory(String scope, UUID scopeOwner) {
        db.update("""
                INSERT INTO risk_scope_hourly_agg (scope, owner_id, channel_code, direction_code, bucket_ts,
                                                   sum_amount, tx_count)
                VALUES (?, ?, '*', ?, date_trunc('hour', now() AT TIME ZONE 'UTC') - interval '1 hour', ?, 1)
                """, scope, scopeOwner, DIRECTION, HISTORY);
    }

    /** {amount, count} over every bucket of the scope key, its history left out. */
    private long[] scopeBucketSum(String scope, UUID scopeOwner, String scopeChannel) {
        return db.queryForObject(
                """
                SELECT coalesce(sum(sum_amount), 0) - ? AS amount, coalesce(sum(tx_count), 0) - 1 AS n
                FROM risk_scope_hourly_agg
                WHERE scope = ? AND owner_id = ? AND channel_code = ? AND direction_code = ?
                """,
                (row, rowNumber) -> new long[] {row.getLong("amount"), row.getLong("n")},
                HISTORY,
                scope,
                scopeOwner,
                scopeChannel,
                DIRECTION);
    }

    private List<AuditRow> auditRows() {
        List<AuditRow> rows = new ArrayList<>();
        for (UUID entity : entities) {
            rows.addAll(db.query(
                    "SELECT dedupe_id, decision, reason, amount FROM risk_request_log"
                            + " WHERE entity_id = ? AND channel_code LIKE ? AND direction_code = ?",
                    (row, rowNumber) -> new AuditRow(
                            row.getString("dedupe_id"),
                            row.getString("decision"),
                            row.getString("reason"),
                            row.getLong("amount")),
                    entity,
                    channel + "%",
                    DIRECTION));
        }
        return rows;
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
}
