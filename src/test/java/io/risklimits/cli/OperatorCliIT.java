package io.risklimits.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.Limit;
import io.risklimits.decision.Window;
import io.risklimits.limits.LimitCatalog;
import io.risklimits.support.DecisionSchema;
import io.risklimits.support.HourBoundary;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The operator CLI against the real PostgreSQL and Kafka of the test run, with the real service
 * running where a command needs it. Every test uses its own channel (CLI_...), so the limits it sets
 * touch no other test's keys; they are deleted at the end.
 */
class OperatorCliIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final RunningService.Topics TOPICS = RunningService.Topics.unique();
    private static final List<String> CHANNELS = new ArrayList<>();
    private static RunningService service;

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());

    @BeforeAll
    static void startService() {
        service = RunningService.start(TOPICS, Map.of("risk.limits.refresh", "200ms"));
    }

    @AfterAll
    static void stopServiceAndDeleteTheLimits() {
        service.close();
        JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
        CHANNELS.forEach(channel -> db.update("DELETE FROM risk_limit WHERE channel = ?", channel));
    }

    @Test
    void aLimitSetIsShownAndTheRunningServiceAppliesIt() {
        String channel = newChannel();
        UUID entity = UUID.randomUUID();

        CliRun set = database(
                "limits",
                "set",
                "--channel",
                channel,
                "--direction",
                "OUT",
                "--window",
                "24h",
                "--max-amount",
                "5000",
                "--max-count",
                "1");

        assertThat(set.exitCode()).as(set.toString()).isZero();
        assertThat(set.out()).contains("max_amount 5000, max_count 1", "was not set for this scope");
        CliRun show = database("limits", "show");
        assertThat(show.exitCode()).as(show.toString()).isZero();
        assertThat(show.out().lines())
                .anyMatch(line ->
                        line.matches("key\\s+" + channel + "\\s+OUT\\s+-\\s+-\\s+24h\\s+enforce\\s+5000\\s+1\\s+\\S+"));
        awaitLimitInForce(entity, channel, new Limit(5000L, 1L));

        CliRun first = sendEvent(entity, channel, UUID.randomUUID(), 1000);
        CliRun second = sendEvent(entity, channel, UUID.randomUUID(), 1000);

        assertThat(decision(first).get("decision").stringValue()).isEqualTo("APPROVED");
        assertThat(decision(first).get("limits").get("24h").get("count").longValue())
                .isEqualTo(1);
        assertThat(decision(second).get("decision").stringValue()).isEqualTo("REJECTED");
        assertThat(decision(second).get("reason").stringValue()).isEqualTo("LIMIT_24H_COUNT");
    }

    @Test
    void setReplacesTheRowOfItsScopeAndUnsetDeletesIt() {
        String channel = newChannel();
        String scope = "--channel " + channel + " --direction IN --window 7d";

        database(("limits set " + scope + " --max-amount 10 --max-count 2").split(" "));
        CliRun replaced = database(("limits set " + scope + " --max-amount 0 --max-count 0").split(" "));

        assertThat(replaced.exitCode()).as(replaced.toString()).isZero();
        assertThat(replaced.out()).contains("was max_amount 10, max_count 2");
        assertThat(db.queryForList(
                        "SELECT max_amount || '/' || max_count FROM risk_limit WHERE channel = ?",
                        String.class,
                        channel))
                .containsExactly("0/0");
        CliRun unset = database(("limits unset " + scope).split(" "));
        assertThat(unset.exitCode()).as(unset.toString()).isZero();
        assertThat(db.queryForObject("SELECT count(*) FROM risk_limit WHERE channel = ?", Long.class, channel))
                .isZero();
        CliRun again = database(("limits unset " + scope).split(" "));
        assertThat(again.exitCode()).as(again.toString()).isEqualTo(1);
        assertThat(again.err()).contains("no 7d limit row for channel " + channel);
    }

    @Test
    void shadowRowsAreSetShownBesideTheEnforcedOnesAndPromotedInOneGo() {
        String channel = newChannel();
        String scope = "--channel " + channel + " --direction OUT";
        database(("limits set " + scope + " --window 24h --max-amount 50000 --max-count 20").split(" "));
        database(("limits set " + scope + " --window 7d --max-amount 90000 --max-count 90").split(" "));
        CliRun shadowDay =
                database(("limits set " + scope + " --window day --max-amount 4000 --max-count 4 --shadow").split(" "));
        database(("limits set " + scope + " --window 24h --max-amount 30000 --max-count 10 --shadow").split(" "));

        assertThat(shadowDay.exitCode()).as(shadowDay.toString()).isZero();
        assertThat(shadowDay.out()).contains("set shadow day limit of");
        CliRun show = database("limits", "show", "--channel", channel, "--direction", "OUT");
        assertThat(show.out())
                .containsPattern("24h\\s+50000\\s+20\\s+channel " + channel)
                .contains("shadow limits (reported with each decision, never enforced):")
                .containsPattern("24h\\s+30000\\s+10\\s+channel " + channel + " direction OUT entity \\* \\(shadow\\)")
                .containsPattern("7d\\s+90000\\s+90\\s+channel " + channel + " direction OUT entity \\*\n");

        CliRun promote = database(("limits promote " + scope).split(" "));

        assertThat(promote.exitCode()).as(promote.toString()).isZero();
        assertThat(promote.out()).contains("enforced the shadow limits of", "24h", "day");
        assertThat(db.queryForList(
                        "SELECT window_name || ' ' || mode || ' ' || max_amount FROM risk_limit WHERE channel = ?"
                                + " ORDER BY window_name",
                        String.class,
                        channel))
                .containsExactly("24h enforce 30000", "7d enforce 90000", "day enforce 4000");
        CliRun again = database(("limits promote " + scope).split(" "));
        assertThat(again.exitCode()).isEqualTo(1);
        assertThat(again.err()).contains("no shadow limit rows for channel " + channel);
        db.update("DELETE FROM risk_limit WHERE channel = ?", channel);
    }

    @Test
    void showWithAScopeResolvesTheMostSpecificRowPerWindow() {
        String channel = newChannel();
        UUID entity = UUID.randomUUID();
        setLimit(channel, "OUT", null, "24h", 50_000, 20);
        setLimit(channel, "OUT", entity, "24h", 3_000, 5);
        setLimit(channel, "*", entity, "30d", 9_000, 9);

        CliRun forEntity =
                database("limits", "show", "--channel", channel, "--direction", "OUT", "--entity", entity.toString());
        CliRun forOthers = database("limits", "show", "--channel", channel, "--direction", "OUT");

        assertThat(forEntity.exitCode()).as(forEntity.toString()).isZero();
        assertThat(forEntity.out())
                .containsPattern("24h\\s+3000\\s+5\\s+channel " + channel + " direction OUT entity " + entity)
                .containsPattern("7d\\s+\\d+\\s+\\d+\\s+channel \\* direction \\* entity \\*")
                .containsPattern("30d\\s+9000\\s+9\\s+channel " + channel + " direction \\* entity " + entity);
        assertThat(forOthers.out())
                .containsPattern("24h\\s+50000\\s+20\\s+channel " + channel + " direction OUT entity \\*")
                .doesNotContain(entity.toString());
        // what the CLI shows is what the service applies
        BusinessKey key = new BusinessKey(entity, channel, Direction.OUT);
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(
                                service.bean(LimitCatalog.class).limitsFor(key).of(Window.LAST_30_DAYS))
                        .isEqualTo(new Limit(9_000L, 9L)));
        assertThat(service.bean(LimitCatalog.class).limitsFor(key).of(Window.LAST_24_HOURS))
                .isEqualTo(new Limit(3_000L, 5L));
    }

    @Test
    void explainShowsAnApprovedAndARejectedDecisionAndFailsForAnUnknownId() {
        String channel = newChannel();
        UUID entity = UUID.randomUUID();
        setLimit(channel, "OUT", entity, "24h", 1500, 100);
        awaitLimitInForce(entity, channel, new Limit(1500L, 100L));
        UUID approvedId = UUID.randomUUID();
        UUID rejectedId = UUID.randomUUID();
        assertThat(decision(sendEvent(entity, channel, approvedId, 1000))
                        .get("decision")
                        .stringValue())
                .isEqualTo("APPROVED");
        assertThat(decision(sendEvent(entity, channel, rejectedId, 600))
                        .get("decision")
                        .stringValue())
                .isEqualTo("REJECTED");

        CliRun approved = database("explain", approvedId.toString());
        CliRun rejected = database(
                "explain",
                rejectedId.toString(),
                "--entity",
                entity.toString(),
                "--channel",
                channel,
                "--direction",
                "OUT");
        CliRun unknown = database("explain", UUID.randomUUID().toString());

        assertThat(approved.exitCode()).as(approved.toString()).isZero();
        assertThat(approved.out())
                .contains(entity + ":" + channel + ":OUT")
                .containsPattern("decision\\s+APPROVED")
                .containsPattern("amount\\s+1000 USD")
                .containsPattern("decided_at\\s+\\d{4}-")
                .containsPattern("bucket_ts\\s+\\d{4}-\\d\\d-\\d\\dT\\d\\d:00:00Z")
                .containsPattern("24h\\s+0\\s+0\\s+1500\\s+100\\s+fits");
        assertThat(rejected.exitCode()).as(rejected.toString()).isZero();
        assertThat(rejected.out())
                .containsPattern("decision\\s+REJECTED")
                .containsPattern("reason\\s+LIMIT_24H_AMOUNT")
                .containsPattern("24h\\s+1000\\s+1\\s+1500\\s+100\\s+amount over the limit");
        assertThat(unknown.exitCode()).as(unknown.toString()).isEqualTo(1);
        assertThat(unknown.err()).contains("no decision for dedupe_id").doesNotContain("\tat ");
    }

    @Test
    void explainListsEveryBusinessKeyADedupeIdWasFiledUnder() {
        String channel = newChannel();
        UUID dedupeId = UUID.randomUUID();
        UUID entity = UUID.randomUUID();
        for (String direction : List.of("IN", "OUT")) {
            db.update("""
                    INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                                  decision, amount, currency, decided_at)
                    VALUES (?, ?, ?, ?, date_trunc('hour', now() AT TIME ZONE 'UTC'), 'APPROVED', 7, 'USD', now())
                    """, entity, channel, direction, dedupeId);
        }

        CliRun both = database("explain", dedupeId.toString());
        CliRun one = database("explain", dedupeId.toString(), "--direction", "IN");

        assertThat(both.exitCode()).as(both.toString()).isZero();
        assertThat(both.out())
                .contains("was filed under 2 business keys")
                .contains(entity + ":" + channel + ":IN")
                .contains(entity + ":" + channel + ":OUT");
        assertThat(one.out()).contains(entity + ":" + channel + ":IN").doesNotContain(":OUT");
    }

    @Test
    void archiveDryRunWaitsForTheResultOfItsOwnCommand() {
        CliRun run = kafka(
                "archive",
                "--dry-run",
                "--window-minutes",
                "1440",
                "--max-windows",
                "2",
                "--archive-commands-topic",
                TOPICS.archiveCommands(),
                "--archive-results-topic",
                TOPICS.archiveResults());

        assertThat(run.exitCode()).as(run.toString()).isZero();
        JsonNode sent = JSON.readTree(line(run, "sent     "));
        JsonNode result = JSON.readTree(line(run, "result   "));
        DecisionSchema.assertValidArchiveResult(line(run, "result   ").getBytes(StandardCharsets.UTF_8));
        assertThat(result.get("command_id").stringValue())
                .isEqualTo(sent.get("command_id").stringValue());
        assertThat(sent.get("dry_run").booleanValue()).isTrue();
        assertThat(sent.get("window_minutes").intValue()).isEqualTo(1440);
        assertThat(result.get("dry_run").booleanValue()).isTrue();
        assertThat(result.get("status").stringValue()).isIn("COMPLETED", "PARTIAL");
        assertThat(run.out()).containsPattern("(COMPLETED|PARTIAL) \\(dry run\\): would delete \\d+ hourly buckets");
        assertThat(db.queryForObject(
                        "SELECT status FROM risk_archive_command WHERE command_id = ?::uuid",
                        String.class,
                        result.get("command_id").stringValue()))
                .isEqualTo(result.get("status").stringValue());
    }

    @Test
    void archiveWithoutAnArchiverTimesOutWithExitCodeOne() {
        RunningService.Topics nobodyListens = RunningService.Topics.unique();
        try (RunningService deciderOnly = RunningService.start(nobodyListens, Map.of("risk.roles", "decider"))) {
            CliRun run = kafka(
                    "archive",
                    "--timeout",
                    "3s",
                    "--archive-commands-topic",
                    nobodyListens.archiveCommands(),
                    "--archive-results-topic",
                    nobodyListens.archiveResults());

            assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
            assertThat(run.err()).contains("no result for command").contains("within 3 s");
        }
    }

    @Test
    void archiveStatusShowsCutoffCursorBacklogLeaseAndLastCommands() {
        HourBoundary.awaitClearOfTheNextHour(Duration.ofSeconds(90));
        LocalDateTime cutoff = db.queryForObject(
                "SELECT date_trunc('hour', (now() AT TIME ZONE 'UTC') - interval '32 days')", LocalDateTime.class);
        UUID entity = UUID.randomUUID();
        String channel = newChannel();
        db.update("""
                INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
                VALUES (?, ?, 'OUT', ?, 1, 1)
                """, entity, channel, cutoff.minusHours(3));
        UUID commandId = UUID.randomUUID();
        db.update("""
                INSERT INTO risk_archive_command (command_id, status, result, started_at, finished_at)
                VALUES (?, 'COMPLETED', '{"dry_run": true, "deleted_agg_rows": 42, "deleted_log_rows": 7}',
                        clock_timestamp() + interval '1 minute', clock_timestamp() + interval '1 minute')
                """, commandId);
        try {
            long backlog =
                    db.queryForObject("SELECT count(*) FROM risk_hourly_agg WHERE bucket_ts < ?", Long.class, cutoff);

            CliRun run = database("archive-status");

            assertThat(run.exitCode()).as(run.toString()).isZero();
            assertThat(run.out())
                    .containsPattern("cutoff\\s+" + cutoff.toInstant(ZoneOffset.UTC) + "\\s+\\(now - retention 32d")
                    .containsPattern("cursor\\s+")
                    .containsPattern(
                            "behind\\s+(\\d+ h \\(\\d+ d \\d+ h\\) from the (cursor|oldest bucket) to the cutoff|up to date)")
                    .containsPattern("lease\\s+")
                    .containsPattern("risk_hourly_agg\\s+" + backlog + "\n")
                    .containsPattern(commandId + "\\s+COMPLETED\\s+\\S+\\s+\\S+\\s+true\\s+42\\s+7");
        } finally {
            db.update("DELETE FROM risk_hourly_chunk WHERE channel_code = ?", channel);
            db.update("DELETE FROM risk_archive_command WHERE command_id = ?", commandId);
        }
    }

    @Test
    void sendEventPrintsTheEventAndItsDecision() {
        UUID dedupeId = UUID.randomUUID();

        CliRun run = sendEvent(UUID.randomUUID(), newChannel(), dedupeId, 1200);

        assertThat(run.exitCode()).as(run.toString()).isZero();
        DecisionSchema.assertValidEvent(line(run, "sent     ").getBytes(StandardCharsets.UTF_8));
        DecisionSchema.assertValidDecision(line(run, "decision ").getBytes(StandardCharsets.UTF_8));
        assertThat(decision(run).get("dedupe_id").stringValue()).isEqualTo(dedupeId.toString());
    }

    @Test
    void sendEventTakesTheClientSettingsOfAKafkaConfigFile(@TempDir Path directory) throws IOException {
        Path settings = Files.writeString(
                directory.resolve("client.properties"), "client.id=risk-cli-it\nrequest.timeout.ms=20000\n");

        CliRun run = sendEvent(UUID.randomUUID(), newChannel(), UUID.randomUUID(), 900, "--kafka-config=" + settings);

        assertThat(decision(run).get("decision").stringValue()).isEqualTo("APPROVED");
    }

    @Test
    void aKafkaConfigFileTheClientsCannotUseFailsTheCommandAndSaysWhy(@TempDir Path directory) throws IOException {
        // TLS against this plaintext broker would not connect either; a truststore that is not there
        // fails at once, and shows that the file's settings reached the clients
        Path missingTruststore = directory.resolve("missing-truststore.jks");
        Path settings = Files.writeString(
                directory.resolve("client.properties"),
                "security.protocol=SSL\nssl.truststore.location=" + missingTruststore + "\n");

        CliRun refused = kafka("send-event", "--kafka-config=" + settings);
        CliRun unreadable = kafka("send-event", "--kafka-config=" + directory.resolve("no-such.properties"));

        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(1);
        assertThat(refused.err()).contains("--kafka-config " + settings).contains("missing-truststore.jks");
        assertThat(unreadable.exitCode()).as(unreadable.toString()).isEqualTo(1);
        assertThat(unreadable.err()).contains("cannot read --kafka-config").contains("no-such.properties");
    }

    private String newChannel() {
        String channel = "CLI_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();
        CHANNELS.add(channel);
        return channel;
    }

    private void setLimit(String channel, String direction, UUID entity, String window, long amount, long count) {
        List<String> arguments = new ArrayList<>(List.of(
                "limits",
                "set",
                "--channel",
                channel,
                "--direction",
                direction,
                "--window",
                window,
                "--max-amount",
                Long.toString(amount),
                "--max-count",
                Long.toString(count)));
        if (entity != null) {
            arguments.addAll(List.of("--entity", entity.toString()));
        }
        CliRun run = database(arguments.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.toString()).isZero();
    }

    /** The catalog refreshes every 200 ms here: wait for it rather than guess. */
    private static void awaitLimitInForce(UUID entity, String channel, Limit limit) {
        BusinessKey key = new BusinessKey(entity, channel, Direction.OUT);
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> service.bean(LimitCatalog.class)
                        .limitsFor(key)
                        .of(Window.LAST_24_HOURS)
                        .equals(limit));
    }

    /** send-event sends a reversal; explain of the authorization lists it and says what remains. */
    @Test
    void aReversalSentFromTheCliIsExplainedUnderItsAuthorization() {
        String channel = newChannel();
        UUID entity = UUID.randomUUID();
        UUID authorizationId = UUID.randomUUID();
        UUID reversalId = UUID.randomUUID();
        sendEvent(entity, channel, authorizationId, 1000);

        JsonNode released = decision(
                sendEvent(entity, channel, reversalId, 400, "--type=REVERSAL", "--reverses=" + authorizationId));
        CliRun authorization = database("explain", authorizationId.toString());
        CliRun reversal = database("explain", reversalId.toString());

        assertThat(released.get("decision").stringValue()).isEqualTo("RELEASED");
        assertThat(released.get("remaining").longValue()).isEqualTo(600);
        assertThat(authorization.exitCode()).as(authorization.toString()).isZero();
        assertThat(authorization.out())
                .containsPattern("type\\s+AUTHORIZATION")
                .containsPattern(reversalId + "\\s+REVERSAL\\s+RELEASED\\s+-\\s+400\\s+400")
                .contains("remaining: 600 of 1000 still counted");
        assertThat(reversal.exitCode()).as(reversal.toString()).isZero();
        assertThat(reversal.out())
                .containsPattern("type\\s+REVERSAL")
                .containsPattern("reverses\\s+" + authorizationId)
                .containsPattern("released\\s+400")
                .containsPattern("original remaining\\s+600")
                .containsPattern("24h\\s+1000\\s+1\\s+.*uses no limit");
    }

    /** send-event sends a hold and a capture of part of it; holds then lists what the hold still holds. */
    @Test
    void aHoldSentFromTheCliIsCapturedInPartAndHoldsTheRest() {
        String channel = newChannel();
        UUID entity = UUID.randomUUID();
        UUID authorizationId = UUID.randomUUID();
        UUID captureId = UUID.randomUUID();
        Instant expiry = Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.SECONDS);

        JsonNode hold = decision(sendEvent(entity, channel, authorizationId, 1000, "--hold-expires-at=" + expiry));
        JsonNode capture = decision(sendEvent(
                entity, channel, captureId, 300, "--type=CAPTURE", "--original=" + authorizationId, "--final=false"));
        CliRun holds = database("holds", "--entity-id", entity.toString(), "--channel", channel, "--direction", "OUT");

        assertThat(hold.get("decision").stringValue()).as(hold.toString()).isEqualTo("APPROVED");
        assertThat(Instant.parse(hold.get("hold_expires_at").stringValue()))
                .as(hold.toString())
                .isEqualTo(expiry);
        assertThat(capture.get("decision").stringValue()).as(capture.toString()).isEqualTo("CAPTURED");
        assertThat(capture.get("original").stringValue()).as(capture.toString()).isEqualTo(authorizationId.toString());
        assertThat(capture.get("captured").longValue()).as(capture.toString()).isEqualTo(300);
        assertThat(capture.get("over_captured").longValue())
                .as(capture.toString())
                .isZero();
        assertThat(holds.exitCode()).as(holds.toString()).isZero();
        assertThat(holds.out()).containsPattern(authorizationId + "\\s+1000\\s+300\\s+700\\s+" + expiry + "\n");
    }

    /**
     * Reversals decided in one batch share its decided_at; explain lists them in the order they were
     * decided (their decided_order, as the batch files them), which here is not their dedupe_ids' order.
     */
    @Test
    void explainListsTheReversalsOfOneBatchInTheOrderTheyWereDecided() {
        String channel = newChannel();
        UUID entity = UUID.randomUUID();
        UUID authorizationId = UUID.randomUUID();
        List<UUID> inDecidedOrder = List.of(
                UUID.fromString("30000000-0000-4000-8000-000000000000"),
                UUID.fromString("10000000-0000-4000-8000-000000000000"),
                UUID.fromString("20000000-0000-4000-8000-000000000000"));
        db.update("""
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, decided_at)
                VALUES (?, ?, 'OUT', ?, date_trunc('hour', now() AT TIME ZONE 'UTC'), 'APPROVED', 1000, 'USD',
                        now() - interval '1 minute')
                """, entity, channel, authorizationId);
        long remaining = 1000;
        for (int place = 0; place < inDecidedOrder.size(); place++) {
            long amount = 100L * (place + 1);
            remaining -= amount;
            db.update(
                    """
                    INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                                  decision, amount, currency, decided_at, decided_order, type,
                                                  reverses, released_amount, released_count, remaining)
                    VALUES (?, ?, 'OUT', ?, date_trunc('hour', now() AT TIME ZONE 'UTC'), 'RELEASED', ?, 'USD',
                            date_trunc('second', now()), ?, 'REVERSAL', ?, ?, 0, ?)
                    """, entity, channel, inDecidedOrder.get(place), amount, place, authorizationId, amount, remaining);
        }

        CliRun explained = database("explain", authorizationId.toString());

        assertThat(explained.exitCode()).as(explained.toString()).isZero();
        assertThat(explained
                        .out()
                        .lines()
                        .flatMap(line ->
                                inDecidedOrder.stream().filter(reversal -> line.startsWith(reversal.toString()))))
                .as(explained.out())
                .containsExactlyElementsOf(inDecidedOrder);
        assertThat(explained.out()).contains("remaining: 400 of 1000 still counted");
    }

    private static CliRun sendEvent(UUID entity, String channel, UUID dedupeId, long amount, String... more) {
        CliRun run = kafka(concat(
                new String[] {
                    "send-event",
                    "--entity=" + entity,
                    "--channel=" + channel,
                    "--direction=OUT",
                    "--amount=" + amount,
                    "--dedupe-id=" + dedupeId,
                    "--transactions-topic=" + TOPICS.transactions(),
                    "--decisions-topic=" + TOPICS.decisions()
                },
                more));
        assertThat(run.exitCode()).as(run.toString()).isZero();
        return run;
    }

    private static JsonNode decision(CliRun run) {
        return JSON.readTree(line(run, "decision "));
    }

    private static String line(CliRun run, String prefix) {
        return run.out()
                .lines()
                .filter(line -> line.startsWith(prefix))
                .map(line -> line.substring(prefix.length()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line starting '" + prefix + "' in\n" + run));
    }

    private static CliRun database(String... arguments) {
        TestInfrastructure infrastructure = TestInfrastructure.get();
        return CliRun.of(concat(
                arguments,
                "--jdbc-url=" + infrastructure.jdbcUrl(),
                "--db-user=" + infrastructure.username(),
                "--db-password=" + infrastructure.password()));
    }

    private static CliRun kafka(String... arguments) {
        return CliRun.of(concat(
                arguments, "--bootstrap-servers=" + TestInfrastructure.get().bootstrapServers()));
    }

    private static String[] concat(String[] first, String... more) {
        return Stream.concat(Stream.of(first), Stream.of(more)).toArray(String[]::new);
    }
}
