package io.risklimits.decider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.risklimits.decision.ReferenceModel;
import io.risklimits.support.DecisionMessage;
import io.risklimits.support.Events;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Thousands of random events over dozens of keys, with history in every window, must get exactly
 * the decisions of the sequential reference model: verdict, reason, usage and limits. Every window kind
 * is limited, from rows of different specificity, with the calendar windows in America/New_York: this
 * November began in daylight saving time, so the month window spans the change.
 */
class DeciderOracleIT {

    private static final ZoneId ZONE = ZoneId.of("America/New_York");

    private static final int ENTITIES = 20;
    private static final int EVENTS = Integer.getInteger("oracle.events", 3000);
    private static final long SEED = 20261122L;

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final Random random = new Random(SEED);
    private final String channel =
            "ORC_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();

    /** @param reverses the original a reversal names; null for an authorization */
    record Sent(String key, String dedupeId, byte[] payload, long amount, boolean invalid, String reverses) {

        boolean reversal() {
            return reverses != null;
        }
    }

    // its week and month rows would hold other tests' services to a longer retention
    @AfterEach
    void deleteLimits() {
        db.update("DELETE FROM risk_limit WHERE channel = ?", channel);
    }

    @Test
    void decisionsEqualThoseOfTheReferenceModel() {
        List<UUID> entities = new ArrayList<>();
        for (int i = 0; i < ENTITIES; i++) {
            entities.add(UUID.randomUUID());
        }
        UUID overridden = entities.get(0);
        insertLimits(overridden);
        ReferenceModel model = new ReferenceModel(ZONE);
        loadHistory(entities, model);

        RunningService.Topics topics = RunningService.Topics.unique();
        List<Sent> sent = new ArrayList<>();
        long started;
        try (RunningService service = RunningService.start(topics, Map.of("risk.limits.time-zone", ZONE.getId()));
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            started = System.nanoTime();
            List<Future<RecordMetadata>> sends = new ArrayList<>();
            for (int i = 0; i < EVENTS; i++) {
                Sent event = randomEvent(entities, sent);
                sent.add(event);
                sends.add(producer.send(
                        new ProducerRecord<>(topics.transactions(), TestKafka.utf8(event.key()), event.payload())));
            }
            TestKafka.confirm(sends);
            List<DecisionMessage> messages = readUntilEverySendIsAnswered(topics, sent);
            double seconds = (System.nanoTime() - started) / 1e9;
            System.out.printf(
                    "Oracle: %d events decided end to end in %.1f s: %.0f events/s; %d decision messages%n",
                    EVENTS, seconds, EVENTS / seconds, messages.size());
            assertAgainstModel(sent, messages, model, overridden);
        }
    }

    /**
     * Decisions are delivered at least once: every record sent is answered, a record sent again (or
     * delivered again) with a replayed decision, so a dedupe id sent twice has at least two messages.
     * The reading stops when every dedupe id has as many answers as it was sent, not when it has one:
     * a dedupe id sent again near the end would otherwise be read before its replay is published.
     * When time runs out, the failure names the dedupe ids still waiting for an answer.
     */
    private static List<DecisionMessage> readUntilEverySendIsAnswered(RunningService.Topics topics, List<Sent> sent) {
        Map<String, Integer> awaited = new HashMap<>();
        sent.forEach(event -> awaited.merge(event.dedupeId(), 1, Integer::sum));
        List<DecisionMessage> messages = new ArrayList<>();
        try {
            TestKafka.readUntil(topics.decisions(), Duration.ofMinutes(4), records -> {
                records.subList(messages.size(), records.size()).stream()
                        .map(DecisionMessage::of)
                        .forEach(message -> {
                            messages.add(message);
                            awaited.computeIfPresent(message.dedupeId(), (id, count) -> count > 1 ? count - 1 : null);
                        });
                return awaited.isEmpty();
            });
        } catch (ConditionTimeoutException timedOut) {
            fail(
                    "%d of %d dedupe ids are still waiting for an answer, among them %s",
                    awaited.size(),
                    sent.stream().map(Sent::dedupeId).distinct().count(),
                    awaited.keySet().stream().limit(5).toList());
        }
        return messages;
    }

    private void assertAgainstModel(
            List<Sent> sent, List<DecisionMessage> messages, ReferenceModel model, UUID overridden) {
        Map<String, List<DecisionMessage>> byDedupe = messages.stream()
                .collect(Collectors.groupingBy(DecisionMessage::dedupeId, LinkedHashMap::new, Collectors.toList()));
        assertThat(byDedupe.keySet())
                .containsExactlyInAnyOrderElementsOf(
                        sent.stream().map(Sent::dedupeId).distinct().toList());
        byDedupe.values().forEach(DeciderOracleIT::assertAllAgree);

        Map<String, Boolean> decided = new HashMap<>();
        Map<String, Integer> outcomes = new TreeMap<>();
        int approved = 0;
        int rejected = 0;
        for (Sent event : sent) {
            DecisionMessage first = byDedupe.get(event.dedupeId()).get(0);
            if (decided.put(event.dedupeId(), true) != null) {
                assertThat(byDedupe.get(event.dedupeId())).anyMatch(DecisionMessage::replayed);
                continue;
            }
            assertThat(first.replayed()).isFalse();
            if (event.invalid()) {
                assertThat(first.decision()).isEqualTo("INVALID");
                model.invalid(event.key(), event.dedupeId());
                continue;
            }
            Instant bucket = Instant.parse(first.json().get("bucket_ts").stringValue());
            boolean isOverridden = event.key().startsWith(overridden.toString());
            Map<String, ReferenceModel.Cap> caps = caps(event.key().endsWith(":OUT"), isOverridden);
            ReferenceModel.Expected expected = event.reversal()
                    ? model.reverse(event.key(), event.dedupeId(), event.reverses(), event.amount(), bucket)
                    : model.decide(event.key(), event.dedupeId(), event.amount(), bucket, caps);
            assertThat(first.decision()).as("decision of %s", event.dedupeId()).isEqualTo(expected.decision());
            assertReleased(first, expected, event);
            outcomes.merge(first.decision() + (first.reason() == null ? "" : " " + first.reason()), 1, Integer::sum);
            assertThat(first.reason()).as("reason of %s", event.dedupeId()).isEqualTo(expected.reason());
            assertWindows(first, expected, caps, event);
            if (expected.decision().equals("APPROVED")) {
                approved++;
            } else if (!event.reversal()) {
                rejected++;
            }
        }
        System.out.printf(
                "Oracle: %d approved, %d rejected, %d replays checked; outcomes %s%n",
                approved, rejected, sent.size() - decided.size(), outcomes);
        assertThat(approved).as("approved").isGreaterThan(EVENTS / 20);
        assertThat(rejected).as("rejected (the limits must bite)").isGreaterThan(EVENTS / 20);
        for (String limitOutcome : List.of("REJECTED LIMIT_TXN_AMOUNT", "REJECTED LIMIT_WEEK_AMOUNT")) {
            assertThat(outcomes).as("authorizations ending %s", limitOutcome).containsKey(limitOutcome);
        }
        assertThat(outcomes.keySet()).as("a day limit bites").anyMatch(outcome -> outcome.contains("LIMIT_DAY_"));
        for (String reversalOutcome : List.of(
                "RELEASED",
                "REJECTED ORIGINAL_NOT_FOUND",
                "REJECTED ORIGINAL_NOT_APPROVED",
                "REJECTED EXCEEDS_REMAINING")) {
            assertThat(outcomes).as("reversals ending %s", reversalOutcome).containsKey(reversalOutcome);
        }
    }

    /** Usage and limits of the windows in force, and no others; txn has an amount and no usage. */
    private static void assertWindows(
            DecisionMessage message,
            ReferenceModel.Expected expected,
            Map<String, ReferenceModel.Cap> caps,
            Sent event) {
        JsonNode limits = message.json().get("limits");
        JsonNode usage = message.json().get("usage");
        assertThat(limits.propertyNames())
                .as("windows in force for %s", event.dedupeId())
                .containsExactlyInAnyOrderElementsOf(caps.keySet());
        for (String window : ReferenceModel.WINDOWS) {
            ReferenceModel.Cap cap = caps.get(window);
            if (cap == null) {
                assertThat(usage.has(window))
                        .as("%s usage of %s", window, event.dedupeId())
                        .isFalse();
                continue;
            }
            assertThat(limits.get(window).get("amount").longValue()).isEqualTo(cap.amount());
            if (window.equals("txn")) {
                assertThat(limits.get(window).has("count")).isFalse();
                assertThat(usage.has(window)).isFalse();
                continue;
            }
            assertThat(limits.get(window).get("count").longValue()).isEqualTo(cap.count());
            assertThat(new long[] {message.usageAmount(window), message.usageCount(window)})
                    .as("%s usage of %s", window, event.dedupeId())
                    .containsExactly(expected.usage().get(window));
        }
    }

    private static void assertReleased(DecisionMessage message, ReferenceModel.Expected expected, Sent event) {
        if (expected.released() == null) {
            assertThat(message.json().has("released"))
                    .as("released of %s", event.dedupeId())
                    .isFalse();
        } else {
            assertThat(new long[] {
                        message.json().get("released").get("amount").longValue(),
                        message.json().get("released").get("count").longValue()
                    })
                    .as("released of %s", event.dedupeId())
                    .containsExactly(expected.released());
        }
        if (expected.remaining() == null) {
            assertThat(message.json().has("remaining"))
                    .as("remaining of %s", event.dedupeId())
                    .isFalse();
        } else {
            assertThat(message.json().get("remaining").longValue())
                    .as("remaining of %s", event.dedupeId())
                    .isEqualTo(expected.remaining());
        }
    }

    private static void assertAllAgree(List<DecisionMessage> messagesOfOneDedupe) {
        DecisionMessage first = messagesOfOneDedupe.get(0);
        for (DecisionMessage message : messagesOfOneDedupe) {
            assertThat(message.withoutReplayedFlag()).isEqualTo(first.withoutReplayedFlag());
        }
    }

    private Sent randomEvent(List<UUID> entities, List<Sent> sentSoFar) {
        if (!sentSoFar.isEmpty() && random.nextInt(100) < 5) {
            return sentSoFar.get(random.nextInt(sentSoFar.size()));
        }
        if (!sentSoFar.isEmpty() && random.nextInt(100) < 12) {
            return randomReversal(sentSoFar.get(random.nextInt(sentSoFar.size())), entities);
        }
        UUID entity = entities.get(random.nextInt(entities.size()));
        String direction = random.nextBoolean() ? "IN" : "OUT";
        boolean invalid = random.nextInt(100) < 3;
        long amount = invalid ? 0 : 1 + random.nextInt(3000);
        UUID dedupeId = UUID.randomUUID();
        byte[] payload = Events.json(Events.event(dedupeId, entity, channel, direction, amount));
        return new Sent(
                Events.businessKey(entity, channel, direction), dedupeId.toString(), payload, amount, invalid, null);
    }

    /**
     * A reversal naming an event sent before (whatever became of it: approved, rejected, invalid, or a
     * reversal itself), mostly under its own key: in full, in part, or for more than it was; now and
     * then under another key, or naming an event that never was.
     */
    private Sent randomReversal(Sent earlier, List<UUID> entities) {
        String[] key = earlier.key().split(":");
        UUID entity = UUID.fromString(key[0]);
        String direction = key[2];
        UUID reverses = UUID.fromString(earlier.dedupeId());
        int kind = random.nextInt(100);
        if (kind < 5) {
            reverses = UUID.randomUUID();
        } else if (kind < 10) {
            entity = entities.get(random.nextInt(entities.size()));
            direction = direction.equals("IN") ? "OUT" : "IN";
        }
        long original = Math.max(1, earlier.amount());
        long amount =
                kind < 40 ? original : kind < 85 ? 1 + random.nextInt((int) Math.min(original, 3000)) : original + 1;
        UUID dedupeId = UUID.randomUUID();
        byte[] payload = Events.json(Events.reversal(dedupeId, entity, channel, direction, amount, reverses));
        return new Sent(
                Events.businessKey(entity, channel, direction),
                dedupeId.toString(),
                payload,
                amount,
                false,
                reverses.toString());
    }

    /**
     * Limits the test sets, resolved by hand: entity override, then channel + direction, then channel
     * alone, then the seeded defaults. The txn row's count is ignored.
     */
    private static Map<String, ReferenceModel.Cap> caps(boolean outgoing, boolean overridden) {
        Map<String, ReferenceModel.Cap> caps = new HashMap<>();
        if (outgoing) {
            caps.put("txn", new ReferenceModel.Cap(2_500, 0));
            caps.put("24h", new ReferenceModel.Cap(20_000, 12));
            caps.put("7d", new ReferenceModel.Cap(60_000, 40));
            caps.put("30d", new ReferenceModel.Cap(150_000, 100));
            caps.put("month", new ReferenceModel.Cap(140_000, 90));
        } else {
            caps.put("24h", new ReferenceModel.Cap(10_000, 8));
            caps.put("7d", new ReferenceModel.Cap(5_000_000, 500));
            caps.put("30d", new ReferenceModel.Cap(20_000_000, 2_000));
            caps.put("day", new ReferenceModel.Cap(6_000, 6));
        }
        caps.put("week", new ReferenceModel.Cap(15_000, 30));
        if (overridden) {
            caps.put("24h", new ReferenceModel.Cap(3_000, 5));
            caps.put("day", new ReferenceModel.Cap(4_000, 6));
        }
        return caps;
    }

    private void insertLimits(UUID overridden) {
        String insert = "INSERT INTO risk_limit (channel, direction, entity_id, window_name, max_amount, max_count)"
                + " VALUES (?, ?, ?, ?, ?, ?)";
        db.update(insert, channel, "OUT", null, "txn", 2_500, 1);
        db.update(insert, channel, "OUT", null, "24h", 20_000, 12);
        db.update(insert, channel, "OUT", null, "7d", 60_000, 40);
        db.update(insert, channel, "OUT", null, "30d", 150_000, 100);
        db.update(insert, channel, "OUT", null, "month", 140_000, 90);
        db.update(insert, channel, "IN", null, "24h", 10_000, 8);
        db.update(insert, channel, "IN", null, "day", 6_000, 6);
        db.update(insert, channel, "*", null, "week", 15_000, 30);
        db.update(insert, channel, "*", overridden, "24h", 3_000, 5);
        db.update(insert, channel, "*", overridden, "day", 4_000, 6);
    }

    /**
     * Half of the keys get buckets inside and just outside each window, relative to the current hour:
     * the rolling windows' first hours, and the first hour of the day, week and month in the zone.
     */
    private void loadHistory(List<UUID> entities, ReferenceModel model) {
        Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
        Map<Instant, long[]> rows = new TreeMap<>();
        for (long[] row : new long[][] {{30, 15_000, 10}, {200, 50_000, 30}, {719, 40_000, 20}, {720, 99_999, 99}}) {
            rows.merge(hour.minus(Duration.ofHours(row[0])), new long[] {row[1], row[2]}, DeciderOracleIT::sum);
        }
        for (String window : List.of("day", "week", "month")) {
            Instant start = model.since(window, hour);
            rows.merge(start, new long[] {1_000, 1}, DeciderOracleIT::sum);
            rows.merge(start.minus(Duration.ofHours(1)), new long[] {700, 1}, DeciderOracleIT::sum);
        }
        for (int i = 0; i < entities.size(); i += 2) {
            for (String direction : List.of("IN", "OUT")) {
                String key = Events.businessKey(entities.get(i), channel, direction);
                for (Map.Entry<Instant, long[]> entry : rows.entrySet()) {
                    Instant bucket = entry.getKey();
                    long[] row = {0, entry.getValue()[0], entry.getValue()[1]};
                    db.update(
                            "INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts,"
                                    + " sum_amount, tx_count) VALUES (?, ?, ?, ?, ?, ?)",
                            entities.get(i),
                            channel,
                            direction,
                            LocalDateTime.ofInstant(bucket, ZoneOffset.UTC),
                            row[1],
                            row[2]);
                    model.history(key, bucket, row[1], row[2]);
                }
            }
        }
    }

    private static long[] sum(long[] a, long[] b) {
        return new long[] {a[0] + b[0], a[1] + b[1]};
    }
}
