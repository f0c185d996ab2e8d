package io.risklimits.decider;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.risklimits.kafka.DeadLetterPublisher;
import io.risklimits.support.DecisionMessage;
import io.risklimits.support.Events;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.OwnRows;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Poison records and INVALID events interleaved with valid events on one partition: every record
 * ends as a decision, a dead letter or both (as the contract says for its kind), the partition
 * never stalls, and nothing invalid or replayed consumes limit.
 */
@ExtendWith(NoRowsLeftBehind.class)
class BadInputIT {

    private static final int PARTITION = 0;
    private static final int ONE_MEGABYTE = 1_000_000; // the broker's default max.message.bytes is 1 MiB + 12
    private static final List<String> DEAD_LETTER_HEADERS = List.of(
            DeadLetterPublisher.ERROR_CLASS,
            DeadLetterPublisher.ERROR_MESSAGE,
            DeadLetterPublisher.ORIGINAL_TOPIC,
            DeadLetterPublisher.ORIGINAL_PARTITION,
            DeadLetterPublisher.ORIGINAL_OFFSET);

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final RunningService.Topics topics = RunningService.Topics.unique();
    private final String channel = "BAD_" + topics.suffix().toUpperCase();
    private final OwnRows rows = new OwnRows();
    private final UUID entity = rows.newEntity();
    private final String businessKey = Events.businessKey(entity, channel, "OUT");

    enum Kind {
        VALID,
        INVALID,
        UNREADABLE
    }

    /** One record as produced; offset is filled in when the broker has it. */
    record Produced(
            String label, Kind kind, String dedupeId, List<String> errorFields, byte[] key, byte[] value, long offset) {

        Produced at(long brokerOffset) {
            return new Produced(label, kind, dedupeId, errorFields, key, value, brokerOffset);
        }
    }

    @AfterEach
    void deleteTheirRows() {
        rows.deleteTheirRows(db);
    }

    @Test
    void poisonAndInvalidRecordsEndAsDecisionsOrDeadLettersAndThePartitionMovesOn() {
        List<Produced> plan = plan();
        try (RunningService service = RunningService.start(topics);
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            List<Produced> produced = produce(producer, plan);
            long lastOffset = produced.get(produced.size() - 1).offset();

            Map<String, List<DecisionMessage>> decisions = awaitDecisions(produced);
            Map<Long, List<ConsumerRecord<byte[], byte[]>>> deadLetters = awaitDeadLetters(produced);

            assertEveryRecordIsAccountedFor(produced, decisions, deadLetters);
            assertValidEventsAreApprovedOnceInOrder(produced, decisions);
            assertInvalidEventsGetAnInvalidDecision(produced, decisions);
            assertDeadLettersCarryTheOriginalAndWhereItCameFrom(produced, deadLetters);
            assertNothingWasCountedTwice(produced);
            assertTheConsumerCommittedPast(lastOffset);
            assertThat(keyMismatches(service))
                    .as("records whose key is not their payload's business key")
                    .isGreaterThanOrEqualTo(2);
        }
    }

    /**
     * docs/contract.md: occurred_at is an RFC 3339 timestamp (four-digit year), and every event with a
     * parseable dedupe_id gets exactly one decision. The reader accepts the year -200000 (not RFC
     * 3339, and outside PostgreSQL's timestamptz range): the event is APPROVED and the request log
     * stores its occurred_at as -infinity.
     */
    @Test
    void anEventWithAYearOutsideRfc3339GetsAnInvalidDecision() {
        Produced outOfRange = invalid(
                "year -200000",
                TestKafka.utf8(businessKey),
                List.of("occurred_at"),
                e -> e.put("occurred_at", "-200000-01-01T00:00:00Z"));
        Produced after = valid("the record after it", TestKafka.utf8(businessKey), 100, e -> {});
        try (RunningService service = RunningService.start(topics);
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            List<Produced> produced = produce(producer, List.of(outOfRange, after));

            Map<String, List<DecisionMessage>> decisions = awaitDecisions(produced);

            assertThat(decisions.get(outOfRange.dedupeId()).get(0).decision()).isEqualTo("INVALID");
            assertThat(decisions.get(after.dedupeId()).get(0).decision()).isEqualTo("APPROVED");
        }
    }

    /**
     * docs/contract.md: an occurred_at before 0001-01-01T00:00:00Z is invalid. PostgreSQL has no year
     * 0, so the event is answered INVALID, stored and published, rather than refused by the database
     * and dead-lettered without a decision.
     */
    @Test
    void anEventOfTheYearZeroGetsAnInvalidDecisionStoredAndPublished() {
        Produced yearZero = invalid(
                "year 0",
                TestKafka.utf8(businessKey),
                List.of("occurred_at"),
                e -> e.put("occurred_at", "0000-06-01T00:00:00Z"));
        Produced after = valid("the record after it", TestKafka.utf8(businessKey), 100, e -> {});
        try (RunningService service = RunningService.start(topics);
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            List<Produced> produced = produce(producer, List.of(yearZero, after));

            Map<Long, List<ConsumerRecord<byte[], byte[]>>> deadLetters = awaitDeadLetters(produced);
            awaitDecisions(List.of(produced.get(1)));

            assertThat(header(deadLetters.get(produced.get(0).offset()).get(0), DeadLetterPublisher.ERROR_CLASS))
                    .as("error class of the dead letter of the year-0 event")
                    .isEqualTo(DeadLetterPublisher.Kind.INVALID_EVENT.name());
            assertThat(db.queryForList(
                            "SELECT decision FROM risk_request_log WHERE entity_id = ? AND channel_code = ? AND dedupe_id = ?",
                            String.class,
                            entity,
                            channel,
                            UUID.fromString(yearZero.dedupeId())))
                    .as("stored decision of the year-0 event")
                    .containsExactly("INVALID");
            Map<String, List<DecisionMessage>> decisions = awaitDecisions(produced);
            assertInvalidEventsGetAnInvalidDecision(produced, decisions);
            assertThat(decisions.get(after.dedupeId()).get(0).decision()).isEqualTo("APPROVED");
        }
    }

    // ---------------------------------------------------------------- the records

    private List<Produced> plan() {
        byte[] key = TestKafka.utf8(businessKey);
        List<Produced> plan = new ArrayList<>();
        plan.add(valid("v1", key, 100, e -> {}));
        plan.add(unreadable("plain text", key, TestKafka.utf8("this is not JSON\r\n")));
        plan.add(valid("v2", key, 200, e -> {}));
        plan.add(unreadable("no dedupe_id", key, Events.json(event(1, e -> e.remove("dedupe_id")))));
        Produced amountZero = invalid("amount 0", key, List.of("amount"), e -> e.put("amount", 0));
        plan.add(amountZero);
        plan.add(unreadable("binary garbage with a binary key", garbage(64, 1), garbage(4096, 2)));
        plan.add(valid("v3", key, 300, e -> {}));
        plan.add(unreadable("tombstone", key, null));
        plan.add(unreadable("tombstone without key", null, null));
        plan.add(invalid("1 MB channel", key, List.of("channel"), e -> e.put("channel", "C".repeat(ONE_MEGABYTE))));
        plan.add(unreadable("1 MB string and no dedupe_id", key, Events.json(event(1, e -> {
            e.remove("dedupe_id");
            e.put("note", "n".repeat(ONE_MEGABYTE));
        }))));
        plan.add(valid("v4 with a 1 MB unknown field", key, 400, e -> e.put("note", "n".repeat(ONE_MEGABYTE))));
        plan.add(invalidRaw("amount 2^63", key, List.of("amount"), "9223372036854775808"));
        plan.add(unreadable(
                "a 500-digit number and no dedupe_id",
                key,
                TestKafka.utf8("{\"entity_id\":\"" + entity + "\",\"amount\":" + "9".repeat(500) + "}")));
        plan.add(invalid("wrong currency, far-future timestamp", key, List.of("currency", "occurred_at"), e -> {
            e.put("currency", "XXX");
            e.put("occurred_at", "9999-12-31T23:59:59Z");
        }));
        plan.add(invalid(
                "direction SIDEWAYS without key", null, List.of("direction"), e -> e.put("direction", "SIDEWAYS")));
        plan.add(unreadable("raw CR LF inside a string, dedupe_id readable", key, rawControlCharacters()));
        plan.add(invalid(
                "escaped CR LF in the channel", key, List.of("channel"), e -> e.put("channel", "CARD\r\nX-Evil: 1")));
        plan.add(valid(
                "v5 under a key that is not its business key", TestKafka.utf8("not-the-business-key"), 500, e -> {}));
        plan.add(valid("v6 without key", null, 600, e -> {}));
        plan.add(copy("v1 again", plan.get(0)));
        plan.add(copy("amount 0 again", amountZero));
        plan.add(valid("v7, the last record", key, 700, e -> {}));
        return plan;
    }

    private Produced valid(String label, byte[] key, long amount, Consumer<Map<String, Object>> change) {
        Map<String, Object> event = event(amount, change);
        return new Produced(label, Kind.VALID, (String) event.get("dedupe_id"), List.of(), key, Events.json(event), -1);
    }

    private Produced invalid(String label, byte[] key, List<String> errorFields, Consumer<Map<String, Object>> change) {
        Map<String, Object> event = event(1, change);
        return new Produced(
                label, Kind.INVALID, (String) event.get("dedupe_id"), errorFields, key, Events.json(event), -1);
    }

    private Produced invalidRaw(String label, byte[] key, List<String> errorFields, String rawAmount) {
        Map<String, Object> event = event(1, e -> {});
        String json = new String(Events.json(event), StandardCharsets.UTF_8)
                .replace("\"amount\":1,", "\"amount\":" + rawAmount + ",");
        assertThat(json).contains(rawAmount);
        return new Produced(
                label, Kind.INVALID, (String) event.get("dedupe_id"), errorFields, key, TestKafka.utf8(json), -1);
    }

    private static Produced unreadable(String label, byte[] key, byte[] value) {
        return new Produced(label, Kind.UNREADABLE, null, List.of(), key, value, -1);
    }

    private static Produced copy(String label, Produced original) {
        return new Produced(
                label,
                original.kind(),
                original.dedupeId(),
                original.errorFields(),
                original.key(),
                original.value(),
                -1);
    }

    private Map<String, Object> event(long amount, Consumer<Map<String, Object>> change) {
        Map<String, Object> event = Events.event(UUID.randomUUID(), entity, channel, "OUT", amount);
        change.accept(event);
        return event;
    }

    private byte[] rawControlCharacters() {
        String json = new String(Events.json(event(1, e -> e.put("note", "@@"))), StandardCharsets.UTF_8);
        return TestKafka.utf8(json.replace("@@", "a\r\nb\u0007c"));
    }

    private static byte[] garbage(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        bytes[0] = (byte) 0xFF; // never valid UTF-8, whatever the random bytes are
        return bytes;
    }

    private List<Produced> produce(KafkaProducer<byte[], byte[]> producer, List<Produced> plan) {
        List<Produced> produced = new ArrayList<>();
        for (Produced record : plan) {
            try {
                long offset = producer.send(
                                new ProducerRecord<>(topics.transactions(), PARTITION, record.key(), record.value()))
                        .get()
                        .offset();
                produced.add(record.at(offset));
            } catch (InterruptedException | ExecutionException e) {
                throw new IllegalStateException("could not produce " + record.label(), e);
            }
        }
        return produced;
    }

    // ---------------------------------------------------------------- reading back

    private Map<String, List<DecisionMessage>> awaitDecisions(List<Produced> produced) {
        Map<String, Long> recordsPerDedupeId = produced.stream()
                .filter(record -> record.dedupeId() != null)
                .collect(Collectors.groupingBy(Produced::dedupeId, Collectors.counting()));
        List<ConsumerRecord<byte[], byte[]>> records =
                TestKafka.readUntil(topics.decisions(), Duration.ofSeconds(40), read -> {
                    Map<String, Long> seen = read.stream()
                            .collect(Collectors.groupingBy(
                                    record -> DecisionMessage.of(record).dedupeId(), Collectors.counting()));
                    return recordsPerDedupeId.entrySet().stream()
                            .allMatch(entry -> seen.getOrDefault(entry.getKey(), 0L) >= entry.getValue());
                });
        Map<String, List<DecisionMessage>> byDedupeId = new LinkedHashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            DecisionMessage message = DecisionMessage.of(record); // schema-validates every message
            byDedupeId
                    .computeIfAbsent(message.dedupeId(), id -> new ArrayList<>())
                    .add(message);
            assertThat(record.key())
                    .as("key of the decision on %s", message.dedupeId())
                    .isEqualTo(decisionKey(produced, message));
        }
        return byDedupeId;
    }

    /** The business key when the decision has one; otherwise the key of the record it answers. */
    private byte[] decisionKey(List<Produced> produced, DecisionMessage message) {
        JsonNode json = message.json();
        if (json.get("entity_id").isNull()
                || json.get("channel").isNull()
                || json.get("direction").isNull()) {
            return produced.stream()
                    .filter(record -> message.dedupeId().equals(record.dedupeId()))
                    .findFirst()
                    .orElseThrow()
                    .key();
        }
        return TestKafka.utf8(
                json.get("entity_id").stringValue() + ":" + json.get("channel").stringValue() + ":"
                        + json.get("direction").stringValue());
    }

    private Map<Long, List<ConsumerRecord<byte[], byte[]>>> awaitDeadLetters(List<Produced> produced) {
        Set<Long> expected = produced.stream()
                .filter(record -> record.kind() != Kind.VALID)
                .map(Produced::offset)
                .collect(Collectors.toSet());
        List<ConsumerRecord<byte[], byte[]>> records = TestKafka.readUntil(
                topics.deadLetter(),
                Duration.ofSeconds(40),
                read -> read.stream()
                        .map(BadInputIT::originalOffset)
                        .collect(Collectors.toSet())
                        .containsAll(expected));
        return records.stream()
                .collect(Collectors.groupingBy(BadInputIT::originalOffset, LinkedHashMap::new, Collectors.toList()));
    }

    // ---------------------------------------------------------------- assertions

    private static void assertEveryRecordIsAccountedFor(
            List<Produced> produced,
            Map<String, List<DecisionMessage>> decisions,
            Map<Long, List<ConsumerRecord<byte[], byte[]>>> deadLetters) {
        Set<String> decidable = produced.stream()
                .map(Produced::dedupeId)
                .filter(id -> id != null)
                .collect(Collectors.toSet());
        assertThat(decisions.keySet()).as("dedupe_ids with a decision").containsExactlyInAnyOrderElementsOf(decidable);
        assertThat(deadLetters.keySet())
                .as("offsets with a dead letter")
                .containsExactlyInAnyOrderElementsOf(produced.stream()
                        .filter(record -> record.kind() != Kind.VALID)
                        .map(Produced::offset)
                        .toList());
        for (Produced record : produced) {
            boolean decided = record.dedupeId() != null && decisions.containsKey(record.dedupeId());
            boolean deadLettered = deadLetters.containsKey(record.offset());
            assertThat(decided || deadLettered)
                    .as("%s (offset %d) is accounted for", record.label(), record.offset())
                    .isTrue();
        }
        for (Map.Entry<String, List<DecisionMessage>> entry : decisions.entrySet()) {
            List<DecisionMessage> messages = entry.getValue();
            long records = produced.stream()
                    .filter(record -> entry.getKey().equals(record.dedupeId()))
                    .count();
            assertThat(messages).as("messages for %s", entry.getKey()).hasSizeGreaterThanOrEqualTo((int) records);
            assertThat(messages.get(0).replayed())
                    .as("first message for %s is a replay", entry.getKey())
                    .isFalse();
            messages.forEach(message -> assertThat(message.withoutReplayedFlag())
                    .isEqualTo(messages.get(0).withoutReplayedFlag()));
            if (records > 1) {
                assertThat(messages)
                        .as("the copy of %s is answered as a replay", entry.getKey())
                        .anyMatch(DecisionMessage::replayed);
            }
        }
    }

    private void assertValidEventsAreApprovedOnceInOrder(
            List<Produced> produced, Map<String, List<DecisionMessage>> decisions) {
        long usedAmount = 0;
        long usedCount = 0;
        Set<String> seen = new HashSet<>();
        for (Produced record : produced) {
            if (record.kind() != Kind.VALID || !seen.add(record.dedupeId())) {
                continue;
            }
            DecisionMessage first = decisions.get(record.dedupeId()).get(0);
            JsonNode json = first.json();
            assertThat(first.decision()).as("decision on %s", record.label()).isEqualTo("APPROVED");
            assertThat(first.reason()).isNull();
            assertThat(json.get("entity_id").stringValue()).isEqualTo(entity.toString());
            assertThat(json.get("channel").stringValue()).isEqualTo(channel);
            // usage before each event: the valid events before it, and nothing from the invalid or replayed ones
            assertThat(new long[] {first.usageAmount("24h"), first.usageCount("24h")})
                    .as("24h usage before %s", record.label())
                    .containsExactly(usedAmount, usedCount);
            usedAmount += json.get("amount").longValue();
            usedCount++;
        }
        assertThat(usedCount).as("distinct valid events").isEqualTo(7);
    }

    private static void assertInvalidEventsGetAnInvalidDecision(
            List<Produced> produced, Map<String, List<DecisionMessage>> decisions) {
        for (Produced record : produced) {
            if (record.kind() != Kind.INVALID) {
                continue;
            }
            for (DecisionMessage message : decisions.get(record.dedupeId())) {
                JsonNode json = message.json();
                assertThat(message.decision())
                        .as("decision on %s", record.label())
                        .isEqualTo("INVALID");
                assertThat(message.reason()).isEqualTo("INVALID_REQUEST");
                List<String> fields = new ArrayList<>();
                json.get("errors").forEach(error -> {
                    fields.add(error.get("field").stringValue());
                    assertThat(error.get("message").stringValue()).doesNotContain("X-Evil", "CCCCCCCC", "\r", "\n");
                });
                assertThat(fields)
                        .as("error fields of %s", record.label())
                        .containsExactlyElementsOf(record.errorFields());
                record.errorFields().stream()
                        .filter(field -> !field.equals("occurred_at")) // a decision does not echo occurred_at
                        .forEach(field -> assertThat(json.get(field).isNull())
                                .as("%s of %s is echoed as null", field, record.label())
                                .isTrue());
                assertThat(json.has("usage") || json.has("limits") || json.has("bucket_ts"))
                        .isFalse();
            }
        }
    }

    private void assertDeadLettersCarryTheOriginalAndWhereItCameFrom(
            List<Produced> produced, Map<Long, List<ConsumerRecord<byte[], byte[]>>> deadLetters) {
        for (Produced record : produced) {
            if (record.kind() == Kind.VALID) {
                continue;
            }
            for (ConsumerRecord<byte[], byte[]> letter : deadLetters.get(record.offset())) {
                String what = record.label() + " at offset " + record.offset();
                assertThat(letter.key())
                        .as("key of the dead letter of %s", what)
                        .isEqualTo(record.key());
                assertThat(letter.value())
                        .as("value of the dead letter of %s", what)
                        .isEqualTo(record.value());
                for (String name : DEAD_LETTER_HEADERS) {
                    assertThat(letter.headers().headers(name))
                            .as("header %s of %s", name, what)
                            .hasSize(1);
                }
                assertThat(header(letter, DeadLetterPublisher.ORIGINAL_TOPIC)).isEqualTo(topics.transactions());
                assertThat(header(letter, DeadLetterPublisher.ORIGINAL_PARTITION))
                        .isEqualTo(Integer.toString(PARTITION));
                assertThat(header(letter, DeadLetterPublisher.ERROR_CLASS))
                        .as("error class of %s", what)
                        .isEqualTo(
                                record.kind() == Kind.INVALID
                                        ? DeadLetterPublisher.Kind.INVALID_EVENT.name()
                                        : DeadLetterPublisher.Kind.UNREADABLE_RECORD.name());
                String message = header(letter, DeadLetterPublisher.ERROR_MESSAGE);
                assertThat(message).as("error message of %s", what).isNotBlank().hasSizeLessThan(4096);
                assertThat(message.chars())
                        .as("control characters in the error message of %s", what)
                        .noneMatch(Character::isISOControl);
                record.errorFields()
                        .forEach(field -> assertThat(message)
                                .as("error message of %s", what)
                                .contains(field));
            }
        }
    }

    /** The hourly buckets hold exactly the valid events, each once: no replay or invalid event was counted. */
    private void assertNothingWasCountedTwice(List<Produced> produced) {
        Map<String, Object> totals = db.queryForMap("""
                SELECT coalesce(sum(sum_amount), 0) AS amount, coalesce(sum(tx_count), 0) AS count
                FROM risk_hourly_agg WHERE entity_id = ? AND channel_code = ? AND direction_code = 'OUT'
                """, entity, channel);
        assertThat(((Number) totals.get("amount")).longValue()).isEqualTo(100 + 200 + 300 + 400 + 500 + 600 + 700);
        assertThat(((Number) totals.get("count")).longValue()).isEqualTo(7);
        Map<String, Long> logRows = new HashMap<>();
        db.query(
                "SELECT decision, count(*) AS n FROM risk_request_log WHERE entity_id = ? AND channel_code = ? GROUP BY decision",
                rs -> {
                    logRows.put(rs.getString("decision"), rs.getLong("n"));
                },
                entity,
                channel);
        // amount 0, amount 2^63 and the currency/timestamp event have a business key; the other INVALID ones are
        // keyless
        assertThat(logRows).isEqualTo(Map.of("APPROVED", 7L, "INVALID", 3L));
    }

    private void assertTheConsumerCommittedPast(long lastOffset) {
        TopicPartition partition = new TopicPartition(topics.transactions(), PARTITION);
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestInfrastructure.get().bootstrapServers()))) {
            Awaitility.await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
                OffsetAndMetadata committed = admin.listConsumerGroupOffsets(topics.groupId())
                        .partitionsToOffsetAndMetadata()
                        .get()
                        .get(partition);
                assertThat(committed).as("committed offset of %s", partition).isNotNull();
                assertThat(committed.offset()).isEqualTo(lastOffset + 1);
            });
        }
    }

    private static double keyMismatches(RunningService service) {
        return service.bean(MeterRegistry.class)
                .get("risk.decider.record.key.mismatch")
                .counter()
                .count();
    }

    private static long originalOffset(ConsumerRecord<byte[], byte[]> letter) {
        return Long.parseLong(header(letter, DeadLetterPublisher.ORIGINAL_OFFSET));
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        assertThat(header).as("header %s", name).isNotNull();
        return new String(header.value(), StandardCharsets.UTF_8);
    }
}
