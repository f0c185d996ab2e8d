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
 * the decisions of the sequential reference model: verdict, reason, usage and limits, at every scope.
 * Every window kind is limited, from rows of different specificity, with the calendar windows in
 * America/New_York: this November began in daylight saving time, so the month window spans the change.
 * Entities act on several channels, accounts hold several entities (not every event names its account),
 * and limits are set at the entity, account-channel and account scopes too. Events of one account are
 * on different partitions, so the model replays them in the order the service decided them: the order
 * of (decided_at, decided_order) in the audit log, which the locks of the scope keys make a serial order
 * of any two events that share one.
 */
class DeciderOracleIT {

    private static final ZoneId ZONE = ZoneId.of("America/New_York");

    private static final int ENTITIES = 20;
    // entities 0 to 14 belong to the accounts in turn, the last five to none
    private static final int ACCOUNTS = 5;
    private static final int ENTITIES_WITH_ACCOUNT = 15;
    private static final int CHANNELS = 3;
    private static final int EVENTS = Integer.getInteger("oracle.events", 3000);
    private static final long SEED = 20261122L;

    /** The rows the migration seeds, which every key's limits resolve over. */
    private static final List<LimitRow> SEEDED_DEFAULTS = List.of(
            new LimitRow("key", "*", "*", null, "24h", 1_000_000, 100),
            new LimitRow("key", "*", "*", null, "7d", 5_000_000, 500),
            new LimitRow("key", "*", "*", null, "30d", 20_000_000, 2_000));

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final Random random = new Random(SEED);
    private final String channelPrefix =
            "ORC_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();
    private final List<String> channels = new ArrayList<>();
    private final List<UUID> entities = new ArrayList<>();
    private final List<UUID> accounts = new ArrayList<>();
    private final List<LimitRow> limitRows = new ArrayList<>();

    /**
     * @param account the account the event names; null when it names none
     * @param reverses the original a reversal names; null for an authorization
     */
    record Sent(
            String key,
            String dedupeId,
            byte[] payload,
            long amount,
            boolean invalid,
            String account,
            String reverses) {

        boolean reversal() {
            return reverses != null;
        }
    }

    /**
     * A row of risk_limit the test sets, resolved by hand: at its scope, for each window the matching row
     * of the owner (entity or account) weighs most, then a channel, then a direction.
     *
     * @param owner the entity (key and entity scopes) or the account (account scopes); null for any
     */
    record LimitRow(
            String scope, String channel, String direction, UUID owner, String window, long amount, long count) {

        boolean matches(String scope, UUID owner, String channel, String direction) {
            return this.scope.equals(scope)
                    && (this.owner == null || this.owner.equals(owner))
                    && (this.channel.equals("*") || this.channel.equals(channel))
                    && (this.direction.equals("*") || this.direction.equals(direction));
        }

        int specificity() {
            return (owner != null ? 4 : 0) + (channel.equals("*") ? 0 : 2) + (direction.equals("*") ? 0 : 1);
        }
    }

    // its week and month rows would hold other tests' services to a longer retention
    @AfterEach
    void deleteLimits() {
        db.update("DELETE FROM risk_limit WHERE channel LIKE ?", channelPrefix + "%");
        entities.forEach(entity -> db.update("DELETE FROM risk_limit WHERE entity_id = ?", entity));
        accounts.forEach(account -> db.update("DELETE FROM risk_limit WHERE account_id = ?", account));
    }

    @Test
    void decisionsEqualThoseOfTheReferenceModelAtEveryScope() {
        for (int i = 0; i < CHANNELS; i++) {
            channels.add(channelPrefix + "_" + i);
        }
        for (int i = 0; i < ENTITIES; i++) {
            entities.add(UUID.randomUUID());
        }
        for (int i = 0; i < ACCOUNTS; i++) {
            accounts.add(UUID.randomUUID());
        }
        insertLimits();
        ReferenceModel model = new ReferenceModel(ZONE);
        loadHistory(model);

        RunningService.Topics topics = RunningService.Topics.unique();
        List<Sent> sent = new ArrayList<>();
        long started;
        try (RunningService service = RunningService.start(topics, Map.of("risk.limits.time-zone", ZONE.getId()));
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            started = System.nanoTime();
            List<Future<RecordMetadata>> sends = new ArrayList<>();
            for (int i = 0; i < EVENTS; i++) {
                Sent event = randomEvent(sent);
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
            assertAgainstModel(sent, messages, model);
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

    private void assertAgainstModel(List<Sent> sent, List<DecisionMessage> messages, ReferenceModel model) {
        Map<String, List<DecisionMessage>> byDedupe = messages.stream()
                .collect(Collectors.groupingBy(DecisionMessage::dedupeId, LinkedHashMap::new, Collectors.toList()));
        assertThat(byDedupe.keySet())
                .containsExactlyInAnyOrderElementsOf(
                        sent.stream().map(Sent::dedupeId).distinct().toList());
        byDedupe.values().forEach(DeciderOracleIT::assertAllAgree);

        Map<String, Sent> firstSent = new LinkedHashMap<>();
        Map<String, Integer> timesSent = new HashMap<>();
        for (Sent event : sent) {
            firstSent.putIfAbsent(event.dedupeId(), event);
            timesSent.merge(event.dedupeId(), 1, Integer::sum);
        }
        List<String> decidedOrder = decidedOrder();
        assertThat(decidedOrder).containsExactlyInAnyOrderElementsOf(firstSent.keySet());

        Map<String, Integer> outcomes = new TreeMap<>();
        int approved = 0;
        int rejected = 0;
        for (String dedupeId : decidedOrder) {
            Sent event = firstSent.get(dedupeId);
            List<DecisionMessage> ofEvent = byDedupe.get(dedupeId);
            DecisionMessage first = ofEvent.get(0);
            assertThat(first.replayed()).isFalse();
            if (timesSent.get(dedupeId) > 1) {
                assertThat(ofEvent).anyMatch(DecisionMessage::replayed);
            }
            assertThat(
                            first.json().has("account_id")
                                    ? first.json().get("account_id").stringValue()
                                    : null)
                    .as("account_id of %s", dedupeId)
                    .isEqualTo(event.account());
            if (event.invalid()) {
                assertThat(first.decision()).isEqualTo("INVALID");
                model.invalid(event.key(), dedupeId);
                continue;
            }
            Instant bucket = Instant.parse(first.json().get("bucket_ts").stringValue());
            Map<String, Map<String, ReferenceModel.Cap>> caps = capsByScope(event);
            ReferenceModel.Expected expected = event.reversal()
                    ? model.reverse(event.key(), dedupeId, event.reverses(), event.amount(), bucket)
                    : model.decide(event.key(), event.account(), dedupeId, event.amount(), bucket, caps);
            assertThat(first.decision()).as("decision of %s", dedupeId).isEqualTo(expected.decision());
            assertReleased(first, expected, event);
            outcomes.merge(first.decision() + (first.reason() == null ? "" : " " + first.reason()), 1, Integer::sum);
            assertThat(first.reason()).as("reason of %s", dedupeId).isEqualTo(expected.reason());
            assertWindows(
                    first.json().get("limits"),
                    first.json().get("usage"),
                    expected.usage(),
                    caps.get("key"),
                    "key scope of " + dedupeId);
            assertScopes(first, expected, caps, event);
            if (expected.decision().equals("APPROVED")) {
                approved++;
            } else if (!event.reversal()) {
                rejected++;
            }
        }
        System.out.printf(
                "Oracle: %d approved, %d rejected, %d replays checked; outcomes %s%n",
                approved, rejected, sent.size() - firstSent.size(), outcomes);
        assertThat(approved).as("approved").isGreaterThan(EVENTS / 20);
        assertThat(rejected).as("rejected (the limits must bite)").isGreaterThan(EVENTS / 20);
        for (String limitOutcome : List.of("REJECTED LIMIT_TXN_AMOUNT", "REJECTED LIMIT_WEEK_AMOUNT")) {
            assertThat(outcomes).as("authorizations ending %s", limitOutcome).containsKey(limitOutcome);
        }
        assertThat(outcomes.keySet()).as("a day limit bites").anyMatch(outcome -> outcome.contains(" LIMIT_DAY_"));
        for (String scopePrefix :
                List.of("REJECTED ENTITY_LIMIT_", "REJECTED ACCOUNT_CHANNEL_LIMIT_", "REJECTED ACCOUNT_LIMIT_")) {
            assertThat(outcomes.keySet())
                    .as("a limit bites at the scope of %s", scopePrefix)
                    .anyMatch(outcome -> outcome.startsWith(scopePrefix));
        }
        for (String reversalOutcome : List.of(
                "RELEASED",
                "REJECTED ORIGINAL_NOT_FOUND",
                "REJECTED ORIGINAL_NOT_APPROVED",
                "REJECTED EXCEEDS_REMAINING")) {
            assertThat(outcomes).as("reversals ending %s", reversalOutcome).containsKey(reversalOutcome);
        }
    }

    /** The dedupe ids of the test's audit rows in the order they were decided. */
    private List<String> decidedOrder() {
        return db.queryForList(
                "SELECT dedupe_id::text FROM risk_request_log WHERE channel_code LIKE ?"
                        + " ORDER BY decided_at, decided_order",
                String.class,
                channelPrefix + "%");
    }

    /**
     * The scopes other than the key's with a window in force, each with its usage and limits; none at
     * all for a reversal.
     */
    private static void assertScopes(
            DecisionMessage message,
            ReferenceModel.Expected expected,
            Map<String, Map<String, ReferenceModel.Cap>> caps,
            Sent event) {
        if (expected.scopes().isEmpty()) {
            assertThat(message.json().has("scopes"))
                    .as("scopes of %s", event.dedupeId())
                    .isFalse();
            return;
        }
        JsonNode scopes = message.json().get("scopes");
        assertThat(scopes).as("scopes of %s", event.dedupeId()).isNotNull();
        assertThat(scopes.propertyNames())
                .as("scopes of %s", event.dedupeId())
                .containsExactlyInAnyOrderElementsOf(expected.scopes().keySet());
        expected.scopes()
                .forEach((scope, usage) -> assertWindows(
                        scopes.get(scope).get("limits"),
                        scopes.get(scope).get("usage"),
                        usage,
                        caps.get(scope),
                        scope + " scope of " + event.dedupeId()));
    }

    /** Usage and limits of the windows in force, and no others; txn has an amount and no usage. */
    private static void assertWindows(
            JsonNode limits,
            JsonNode usage,
            Map<String, long[]> expectedUsage,
            Map<String, ReferenceModel.Cap> caps,
            String what) {
        assertThat(limits.propertyNames())
                .as("windows in force for %s", what)
                .containsExactlyInAnyOrderElementsOf(caps.keySet());
        for (String window : ReferenceModel.WINDOWS) {
            ReferenceModel.Cap cap = caps.get(window);
            if (cap == null) {
                assertThat(usage.has(window)).as("%s usage of %s", window, what).isFalse();
                continue;
            }
            assertThat(limits.get(window).get("amount").longValue())
                    .as("%s amount limit of %s", window, what)
                    .isEqualTo(cap.amount());
            if (window.equals("txn")) {
                assertThat(limits.get(window).has("count")).isFalse();
                assertThat(usage.has(window)).isFalse();
                continue;
            }
            assertThat(limits.get(window).get("count").longValue())
                    .as("%s count limit of %s", window, what)
                    .isEqualTo(cap.count());
            assertThat(new long[] {
                        usage.get(window).get("amount").longValue(),
                        usage.get(window).get("count").longValue()
                    })
                    .as("%s usage of %s", window, what)
                    .containsExactly(expectedUsage.get(window));
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

    /** The account entity i belongs to: the first fifteen entities belong to the accounts in turn. */
    private UUID accountOf(UUID entity) {
        int index = entities.indexOf(entity);
        return index < ENTITIES_WITH_ACCOUNT ? accounts.get(index % ACCOUNTS) : null;
    }

    private Sent randomEvent(List<Sent> sentSoFar) {
        if (!sentSoFar.isEmpty() && random.nextInt(100) < 5) {
            return sentSoFar.get(random.nextInt(sentSoFar.size()));
        }
        if (!sentSoFar.isEmpty() && random.nextInt(100) < 12) {
            return randomReversal(sentSoFar.get(random.nextInt(sentSoFar.size())));
        }
        UUID entity = entities.get(random.nextInt(entities.size()));
        String channel = channels.get(random.nextInt(channels.size()));
        String direction = random.nextBoolean() ? "IN" : "OUT";
        // an entity's events name its account, now and then none
        UUID account = random.nextInt(100) < 85 ? accountOf(entity) : null;
        boolean invalid = random.nextInt(100) < 3;
        long amount = invalid ? 0 : 1 + random.nextInt(3000);
        UUID dedupeId = UUID.randomUUID();
        byte[] payload =
                Events.json(Events.withAccount(Events.event(dedupeId, entity, channel, direction, amount), account));
        return new Sent(
                Events.businessKey(entity, channel, direction),
                dedupeId.toString(),
                payload,
                amount,
                invalid,
                account == null ? null : account.toString(),
                null);
    }

    /**
     * A reversal naming an event sent before (whatever became of it: approved, rejected, invalid, or a
     * reversal itself), mostly under its own key: in full, in part, or for more than it was; now and
     * then under another key, or naming an event that never was. It names its original's account, no
     * account, or another one: where it releases must not depend on it.
     */
    private Sent randomReversal(Sent earlier) {
        String[] key = earlier.key().split(":");
        UUID entity = UUID.fromString(key[0]);
        String channel = key[1];
        String direction = key[2];
        UUID reverses = UUID.fromString(earlier.dedupeId());
        int kind = random.nextInt(100);
        if (kind < 5) {
            reverses = UUID.randomUUID();
        } else if (kind < 10) {
            entity = entities.get(random.nextInt(entities.size()));
            direction = direction.equals("IN") ? "OUT" : "IN";
        }
        int accountKind = random.nextInt(100);
        UUID account = accountKind < 40
                ? (earlier.account() == null ? null : UUID.fromString(earlier.account()))
                : accountKind < 70 ? null : accounts.get(random.nextInt(accounts.size()));
        long original = Math.max(1, earlier.amount());
        long amount =
                kind < 40 ? original : kind < 85 ? 1 + random.nextInt((int) Math.min(original, 3000)) : original + 1;
        UUID dedupeId = UUID.randomUUID();
        byte[] payload = Events.json(
                Events.withAccount(Events.reversal(dedupeId, entity, channel, direction, amount, reverses), account));
        return new Sent(
                Events.businessKey(entity, channel, direction),
                dedupeId.toString(),
                payload,
                amount,
                false,
                account == null ? null : account.toString(),
                reverses.toString());
    }

    /** The caps of the event at each scope it counts at, by scope: the windows in force there. */
    private Map<String, Map<String, ReferenceModel.Cap>> capsByScope(Sent event) {
        String[] key = event.key().split(":");
        UUID entity = UUID.fromString(key[0]);
        Map<String, Map<String, ReferenceModel.Cap>> caps = new LinkedHashMap<>();
        caps.put("key", capsAt("key", entity, key[1], key[2]));
        caps.put("entity", capsAt("entity", entity, "*", key[2]));
        if (event.account() != null && !event.reversal()) {
            UUID account = UUID.fromString(event.account());
            caps.put("account_channel", capsAt("account_channel", account, key[1], key[2]));
            caps.put("account", capsAt("account", account, "*", key[2]));
        }
        return caps;
    }

    /** For each window, the most specific row of the scope that matches the scope key, the seeded ones included. */
    private Map<String, ReferenceModel.Cap> capsAt(String scope, UUID owner, String channel, String direction) {
        Map<String, LimitRow> winners = new HashMap<>();
        List<LimitRow> rows = new ArrayList<>(SEEDED_DEFAULTS);
        rows.addAll(limitRows);
        for (LimitRow row : rows) {
            if (row.matches(scope, owner, channel, direction)) {
                winners.merge(
                        row.window(),
                        row,
                        (current, candidate) -> candidate.specificity() > current.specificity() ? candidate : current);
            }
        }
        Map<String, ReferenceModel.Cap> caps = new HashMap<>();
        winners.forEach((window, row) -> caps.put(window, new ReferenceModel.Cap(row.amount(), row.count())));
        return caps;
    }

    /**
     * Limits at every scope: per channel and direction at the key scope, with one entity's override; per
     * entity at the entity scope, which must name the entity or hold every entity of the database; per
     * channel and per account at the account-channel scope; per account at the account scope. The txn
     * row's count is ignored.
     */
    private void insertLimits() {
        UUID overridden = entities.get(0);
        for (String channel : channels) {
            limitRows.add(new LimitRow("key", channel, "OUT", null, "txn", 2_500, 1));
            limitRows.add(new LimitRow("key", channel, "OUT", null, "24h", 20_000, 12));
            limitRows.add(new LimitRow("key", channel, "OUT", null, "7d", 60_000, 40));
            limitRows.add(new LimitRow("key", channel, "OUT", null, "30d", 150_000, 100));
            limitRows.add(new LimitRow("key", channel, "OUT", null, "month", 140_000, 90));
            limitRows.add(new LimitRow("key", channel, "IN", null, "24h", 10_000, 8));
            limitRows.add(new LimitRow("key", channel, "IN", null, "day", 6_000, 6));
            limitRows.add(new LimitRow("key", channel, "*", null, "week", 15_000, 30));
            limitRows.add(new LimitRow("key", channel, "*", overridden, "24h", 3_000, 5));
            limitRows.add(new LimitRow("key", channel, "*", overridden, "day", 4_000, 6));
        }
        for (int i = 0; i < ENTITIES; i++) {
            if (i % 2 == 0) {
                limitRows.add(new LimitRow("entity", "*", "*", entities.get(i), "24h", 25_000, 20));
            } else if (i % 4 == 1) {
                limitRows.add(new LimitRow("entity", "*", "OUT", entities.get(i), "day", 9_000, 12));
            }
        }
        limitRows.add(new LimitRow("account_channel", channels.get(0), "OUT", null, "day", 8_000, 10));
        limitRows.add(new LimitRow("account_channel", "*", "*", accounts.get(1), "24h", 6_000, 8));
        limitRows.add(new LimitRow("account_channel", channels.get(0), "*", accounts.get(1), "day", 5_000, 10));
        for (UUID account : accounts) {
            limitRows.add(new LimitRow("account", "*", "*", account, "24h", 40_000, 40));
        }
        limitRows.add(new LimitRow("account", "*", "OUT", accounts.get(2), "7d", 30_000, 30));
        String insert = "INSERT INTO risk_limit (scope, channel, direction, entity_id, account_id, window_name,"
                + " max_amount, max_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
        for (LimitRow row : limitRows) {
            boolean ownedByAccount = row.scope().startsWith("account");
            db.update(
                    insert,
                    row.scope(),
                    row.channel(),
                    row.direction(),
                    ownedByAccount ? null : row.owner(),
                    ownedByAccount ? row.owner() : null,
                    row.window(),
                    row.amount(),
                    row.count());
        }
    }

    /**
     * Half of the entities get buckets inside and just outside each window, relative to the current hour:
     * the rolling windows' first hours, and the first hour of the day, week and month in the zone; on
     * their first channel, at their entity scope (as if counted there from the first event on), and for
     * the accounts of the first of them at the account's channel and the account too.
     */
    private void loadHistory(ReferenceModel model) {
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
        String channel = channels.get(0);
        for (String direction : List.of("IN", "OUT")) {
            for (int i = 0; i < entities.size(); i += 2) {
                UUID entity = entities.get(i);
                String key = Events.businessKey(entity, channel, direction);
                rows.forEach((bucket, row) -> {
                    db.update(
                            "INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts,"
                                    + " sum_amount, tx_count) VALUES (?, ?, ?, ?, ?, ?)",
                            entity,
                            channel,
                            direction,
                            LocalDateTime.ofInstant(bucket, ZoneOffset.UTC),
                            row[0],
                            row[1]);
                    model.history(key, bucket, row[0], row[1]);
                });
                scopeHistory(model, rows, "entity", entity, "*", direction);
            }
            for (UUID account : List.of(accounts.get(0), accounts.get(2))) {
                scopeHistory(model, rows, "account_channel", account, channel, direction);
                scopeHistory(model, rows, "account", account, "*", direction);
            }
        }
    }

    private void scopeHistory(
            ReferenceModel model,
            Map<Instant, long[]> rows,
            String scope,
            UUID owner,
            String channel,
            String direction) {
        String scopeKey = String.join(":", scope, owner.toString(), channel, direction);
        rows.forEach((bucket, row) -> {
            db.update(
                    "INSERT INTO risk_scope_hourly_agg (scope, owner_id, channel_code, direction_code, bucket_ts,"
                            + " sum_amount, tx_count) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    scope,
                    owner,
                    channel,
                    direction,
                    LocalDateTime.ofInstant(bucket, ZoneOffset.UTC),
                    row[0],
                    row[1]);
            model.history(scopeKey, bucket, row[0], row[1]);
        });
    }

    private static long[] sum(long[] a, long[] b) {
        return new long[] {a[0] + b[0], a[1] + b[1]};
    }
}
