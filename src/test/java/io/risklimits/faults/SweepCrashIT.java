package io.risklimits.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.hold.HoldTerms;
import io.risklimits.support.TestKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.assertj.core.api.SoftAssertions;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.util.FileSystemUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The hold sweep killed mid-sweep, as real processes of the packaged jar: a worker expires holds of idle
 * keys and halts (like kill -9) either once the broker confirmed their EXPIRED decisions, before it
 * records them sent, or right after the expiries' commit, before it sends any; two sweepers start after
 * it and sweep at once. Every hold must expire once, be given back once at every scope, and have its
 * EXPIRED decision on the decisions topic, every copy the same; in the end no expiry is left to send.
 */
class SweepCrashIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int KEYS = 12;
    private static final int HOLDS_PER_KEY = 3;
    private static final Duration HELD_FOR = Duration.ofSeconds(5);

    /** What the halted sweeper left, and what the decisions topic holds in the end. */
    private record Crash(
            List<UUID> leftUnrecorded, Map<UUID, Integer> sentBeforeTheCrash, Map<UUID, List<JsonNode>> messages) {

        /** The expiries it left unrecorded whose messages number fewer than the given count before and after. */
        List<UUID> leftWithFewerMessages(int before, int after) {
            return leftUnrecorded.stream()
                    .map(HoldTerms::expiryId)
                    .filter(expiry -> sentBeforeTheCrash.getOrDefault(expiry, 0) < before
                            || messages.getOrDefault(expiry, List.of()).size() < after)
                    .toList();
        }
    }

    @Test
    void everyHoldExpiresOnceAndIsPublishedWhenASweeperDiesAfterItsSendsWereConfirmedBeforeRecordingThem()
            throws Exception {
        sweepHaltingAt(
                "after-expiry-sent",
                (softly, crash) -> softly.assertThat(crash.leftWithFewerMessages(1, 2))
                        .as("expiries it left unrecorded without a message before it died, or not sent again after")
                        .isEmpty());
    }

    @Test
    void everyHoldExpiresOnceAndIsPublishedWhenASweeperDiesAfterCommittingExpiriesBeforeSendingThem() throws Exception {
        sweepHaltingAt("after-expiry-commit", (softly, crash) -> {
            softly.assertThat(crash.leftUnrecorded().stream()
                            .map(HoldTerms::expiryId)
                            .filter(crash.sentBeforeTheCrash()::containsKey)
                            .toList())
                    .as("expiries it left unrecorded that it had sent")
                    .isEmpty();
            softly.assertThat(crash.leftWithFewerMessages(0, 1))
                    .as("expiries it left unrecorded that no sweeper sent after")
                    .isEmpty();
        });
    }

    /**
     * A worker whose sweep halts at the point decides the holds and expires them; two sweepers start after
     * it. Checks what every run must end with, and what the point left (checkCrash).
     */
    private void sweepHaltingAt(String point, BiConsumer<SoftAssertions, Crash> checkCrash) throws Exception {
        Path home = Files.createTempDirectory("risk-limits-sweep-crash");
        ScenarioLoad load = ScenarioLoad.expiringHolds(KEYS, HOLDS_PER_KEY, ScenarioRun.HOLDS_CHANNEL, HELD_FOR, 43);
        try (FaultCluster cluster = FaultCluster.start(home);
                ScenarioRun run = new ScenarioRun(cluster, "sweep-crash", load)) {
            JdbcTemplate db = cluster.jdbc();
            WorkerProcess dying = run.startWorker(
                            "dying", Map.of("risk.failpoints.crash-at", point, "risk.failpoints.crash-on-poll", "1"))
                    .awaitReady();
            TestKafka.awaitLeaders(cluster.bootstrapServers(), List.of(run.transactions()));
            load.send(cluster.bootstrapServers(), run.transactions(), 50).get(2, TimeUnit.MINUTES);

            int status = dying.awaitExit(Duration.ofMinutes(2));
            // what the dead sweeper left: expiries committed and not recorded as sent
            List<UUID> leftUnrecorded = db.queryForList(
                    "SELECT dedupe_id FROM risk_authorization_ledger WHERE channel_code = ? AND NOT expiry_published",
                    UUID.class,
                    run.channel);
            Map<UUID, Integer> sentBeforeTheCrash = expiredMessages(cluster, run).entrySet().stream()
                    .collect(Collectors.toMap(
                            Map.Entry::getKey, entry -> entry.getValue().size()));

            run.startWorker("sweeper-1", Map.of());
            run.startWorker("sweeper-2", Map.of());
            Set<UUID> expiries =
                    load.decidable().stream().map(HoldTerms::expiryId).collect(Collectors.toSet());
            try {
                Awaitility.await("every hold expired, published and recorded as sent")
                        .atMost(Duration.ofMinutes(2))
                        .pollInterval(Duration.ofSeconds(1))
                        .ignoreExceptions()
                        .until(() -> unfinishedLedgers(db, run.channel) == 0
                                && expiredMessages(cluster, run).keySet().containsAll(expiries));
            } catch (ConditionTimeoutException notFinished) {
                // the assertions below say what is missing
            }

            Map<UUID, List<JsonNode>> messages = expiredMessages(cluster, run);
            Map<UUID, Long> expiryRows = new HashMap<>();
            Map<UUID, Long> releasedByExpiry = new HashMap<>();
            List<UUID> misnamed = new ArrayList<>();
            db.query(
                    "SELECT original, dedupe_id, released_amount FROM risk_request_log"
                            + " WHERE channel_code = ? AND type = 'EXPIRY'",
                    rs -> {
                        UUID original = rs.getObject("original", UUID.class);
                        expiryRows.merge(original, 1L, Long::sum);
                        releasedByExpiry.merge(original, rs.getLong("released_amount"), Long::sum);
                        if (!rs.getObject("dedupe_id", UUID.class).equals(HoldTerms.expiryId(original))) {
                            misnamed.add(original);
                        }
                    },
                    run.channel);
            Map<UUID, Long> authorized = new HashMap<>();
            db.query(
                    "SELECT dedupe_id, amount FROM risk_request_log"
                            + " WHERE channel_code = ? AND type = 'AUTHORIZATION' AND decision = 'APPROVED'",
                    rs -> {
                        authorized.put(rs.getObject("dedupe_id", UUID.class), rs.getLong("amount"));
                    },
                    run.channel);
            List<UUID> missing = expiries.stream()
                    .filter(expiry -> !messages.containsKey(expiry))
                    .toList();
            List<UUID> differing = messages.entrySet().stream()
                    .filter(entry -> entry.getValue().stream()
                                    .map(SweepCrashIT::withoutReplayedFlag)
                                    .distinct()
                                    .count()
                            > 1)
                    .map(Map.Entry::getKey)
                    .toList();

            SoftAssertions softly = new SoftAssertions();
            softly.assertThat(missing)
                    .as("holds without an EXPIRED message (of %d)", expiries.size())
                    .isEmpty();
            softly.assertThat(differing)
                    .as("expiries whose messages differ apart from replayed")
                    .isEmpty();
            softly.assertThat(authorized.keySet())
                    .as("every authorization approved as a hold")
                    .containsExactlyInAnyOrderElementsOf(load.decidable());
            softly.assertThat(expiryRows)
                    .as("EXPIRY rows per authorization")
                    .hasSize(authorized.size())
                    .allSatisfy((original, rows) -> assertThat(rows).isOne());
            softly.assertThat(misnamed)
                    .as("expiries not under their authorization's name-based dedupe_id")
                    .isEmpty();
            softly.assertThat(releasedByExpiry).as("what each expiry released").isEqualTo(authorized);
            softly.assertThat(buckets(db, run.channel))
                    .as("buckets at key and entity scope")
                    .isGreaterThanOrEqualTo(2 * KEYS);
            softly.assertThat(nonZeroBuckets(db, run.channel))
                    .as("buckets not back to 0 at key and entity scope")
                    .isEmpty();
            softly.assertThat(unfinishedLedgers(db, run.channel))
                    .as("ledgers not EXPIRED or not recorded as sent")
                    .isZero();
            softly.assertThat(status).as("the first sweeper halted at " + point).isEqualTo(137);
            softly.assertThat(leftUnrecorded)
                    .as("expiries the first sweeper left unrecorded")
                    .isNotEmpty();
            checkCrash.accept(softly, new Crash(leftUnrecorded, sentBeforeTheCrash, messages));
            softly.assertAll();
        }
        // kept only when the test failed, for the worker logs in it
        FileSystemUtils.deleteRecursively(home);
    }

    /** The EXPIRED decisions on the run's decisions topic, by dedupe_id. */
    private static Map<UUID, List<JsonNode>> expiredMessages(FaultCluster cluster, ScenarioRun run) {
        Map<UUID, List<JsonNode>> messages = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : TopicReader.readAll(cluster.bootstrapServers(), run.decisions())) {
            JsonNode json = JSON.readTree(record.value());
            if (json.path("decision").asString().equals("EXPIRED")) {
                messages.computeIfAbsent(UUID.fromString(json.get("dedupe_id").stringValue()), id -> new ArrayList<>())
                        .add(json);
            }
        }
        return messages;
    }

    private static JsonNode withoutReplayedFlag(JsonNode message) {
        ObjectNode copy = ((ObjectNode) message).deepCopy();
        copy.remove("replayed");
        return copy;
    }

    private static int unfinishedLedgers(JdbcTemplate db, String channel) {
        Integer unfinished = db.queryForObject(
                "SELECT count(*) FROM risk_authorization_ledger"
                        + " WHERE channel_code = ? AND (status <> 'EXPIRED' OR NOT expiry_published)",
                Integer.class,
                channel);
        return unfinished == null ? -1 : unfinished;
    }

    // the keys' buckets and their entities' (the channel is this test's alone), each of which must be
    // back to 0 once every hold expired
    private static final String BUCKETS = """
            SELECT 'key:' || entity_id || ' at ' || bucket_ts AS bucket, sum_amount, tx_count
            FROM risk_hourly_agg
            WHERE channel_code = ?
            UNION ALL
            SELECT scope || ':' || owner_id || ' at ' || bucket_ts, sum_amount, tx_count
            FROM risk_scope_hourly_agg
            WHERE scope = 'entity' AND owner_id IN (SELECT entity_id FROM risk_request_log WHERE channel_code = ?)
            """;

    private static List<String> nonZeroBuckets(JdbcTemplate db, String channel) {
        return db.query(
                "SELECT bucket || ': ' || sum_amount || '/' || tx_count FROM (" + BUCKETS
                        + ") AS buckets WHERE sum_amount <> 0 OR tx_count <> 0",
                (rs, row) -> rs.getString(1),
                channel,
                channel);
    }

    private static int buckets(JdbcTemplate db, String channel) {
        Integer buckets =
                db.queryForObject("SELECT count(*) FROM (" + BUCKETS + ") AS buckets", Integer.class, channel, channel);
        return buckets == null ? 0 : buckets;
    }
}
