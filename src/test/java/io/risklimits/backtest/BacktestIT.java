package io.risklimits.backtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.cli.CliRun;
import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.Window;
import io.risklimits.decision.hold.HoldTerms;
import io.risklimits.limits.LimitRow;
import io.risklimits.support.TestInfrastructure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The backtest command against a history in the real PostgreSQL, generated and decided by a naive
 * reference model under limits L in New York time across the end of daylight saving time
 * (2026-11-01): replayed under L it flips nothing; under other limits it flips exactly what the
 * reference model flips when it decides the period again from the stored state before it. The keys'
 * channels are this run's own; other keys in the period (none, normally) fall under "unlimited" and
 * are not looked at.
 */
class BacktestIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");
    private static final Instant HISTORY_START = Instant.parse("2026-10-10T00:00:00Z");
    private static final int HISTORY_HOURS = 40 * 24;
    private static final Instant FROM = Instant.parse("2026-10-28T12:34:56Z");
    private static final Instant TO = Instant.parse("2026-11-06T07:00:00Z");

    private static final String CARD = uniqueChannel("BTC");
    private static final String WIRE = uniqueChannel("BTW");
    // the channel of a key decided while a backtest reads: none of the scopes looked at
    private static final String LATE = uniqueChannel("BTL");
    // the channel of a key whose reversal's original has been archived
    private static final String ARCHIVED = uniqueChannel("BTA");
    // the channel of keys with holds, captures, increments and expiries
    private static final String HELD = uniqueChannel("BTH");
    // the channel of a key whose authorization the log rejected and the proposed limits approve as a hold
    private static final String HELD_IF_APPROVED = uniqueChannel("BTR");
    private static final UUID[] ENTITIES = {UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID()};

    private static final List<BusinessKey> KEYS = List.of(
            new BusinessKey(ENTITIES[0], CARD, Direction.OUT),
            new BusinessKey(ENTITIES[1], CARD, Direction.OUT),
            new BusinessKey(ENTITIES[1], CARD, Direction.IN),
            new BusinessKey(ENTITIES[2], CARD, Direction.OUT),
            new BusinessKey(ENTITIES[2], WIRE, Direction.OUT),
            new BusinessKey(ENTITIES[3], WIRE, Direction.IN),
            new BusinessKey(ENTITIES[0], WIRE, Direction.OUT),
            new BusinessKey(ENTITIES[3], WIRE, Direction.OUT));

    // the limits the history was decided under: every window kind, scopes of each specificity but "*"
    private static final List<LimitRow> LIMITS = List.of(
            row(CARD, "*", null, Window.LAST_24_HOURS, 40_000, 12),
            row(CARD, "*", null, Window.MONTH, 700_000, 200),
            row(CARD, "OUT", null, Window.DAY, 30_000, 9),
            row(CARD, "OUT", null, Window.TXN, 15_000, 0),
            row(CARD, "OUT", ENTITIES[0], Window.LAST_24_HOURS, 20_000, 6),
            row(WIRE, "*", null, Window.WEEK, 120_000, 30),
            row(WIRE, "*", null, Window.TXN, 12_000, 0),
            row(WIRE, "OUT", ENTITIES[2], Window.DAY, 15_000, 5),
            row(WIRE, "IN", null, Window.LAST_7_DAYS, 100_000, 25));

    // stricter and looser rows, one key moved to a scope of its own, the month row gone
    private static final List<LimitRow> PROPOSED = List.of(
            row(CARD, "*", null, Window.LAST_24_HOURS, 30_000, 12),
            row(CARD, "OUT", null, Window.DAY, 45_000, 9),
            row(CARD, "OUT", null, Window.TXN, 15_000, 0),
            row(CARD, "OUT", ENTITIES[0], Window.LAST_24_HOURS, 20_000, 4),
            row(WIRE, "*", null, Window.WEEK, 90_000, 30),
            row(WIRE, "*", null, Window.TXN, 16_000, 0),
            row(WIRE, "OUT", ENTITIES[2], Window.DAY, 25_000, 5),
            row(WIRE, "OUT", ENTITIES[3], Window.TXN, 3_000, 0),
            row(WIRE, "IN", null, Window.LAST_7_DAYS, 100_000, 20));

    private static GeneratedHistory history;

    @TempDir
    Path files;

    @BeforeAll
    static void fileTheHistory() {
        history = new GeneratedHistory(KEYS, 34).generate(HISTORY_START, HISTORY_HOURS, 300, LIMITS, NEW_YORK);
        history.insert(new JdbcTemplate(TestInfrastructure.get().dataSource()));
    }

    @AfterAll
    static void deleteTheHistory() {
        JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
        for (String table : List.of("risk_request_log", "risk_hourly_agg")) {
            db.update(
                    "DELETE FROM " + table + " WHERE channel_code IN (?, ?, ?, ?, ?)",
                    CARD,
                    WIRE,
                    LATE,
                    ARCHIVED,
                    HELD);
        }
    }

    @Test
    void underTheLimitsTheHistoryWasDecidedUnderNothingFlips() throws IOException {
        JsonNode result = backtest(LIMITS, "--json");

        Map<String, JsonNode> scopes = ourScopes(result);
        long authorizationsInPeriod = history.events.stream()
                .filter(event -> event.kind == HistoryEvent.Kind.AUTHORIZATION && event.decidedIn(FROM, TO))
                .count();
        assertThat(authorizationsInPeriod).isGreaterThan(300);
        assertThat(scopes.values().stream()
                        .mapToLong(scope -> scope.get("authorizations").longValue())
                        .sum())
                .isEqualTo(authorizationsInPeriod);
        assertThat(scopes.values().stream()
                        .mapToLong(scope -> scope.get("keys").longValue())
                        .sum())
                .isEqualTo(KEYS.size());
        for (JsonNode scope : scopes.values()) {
            assertThat(List.of(
                            scope.get("approved_to_rejected").get("count").longValue(),
                            scope.get("rejected_to_approved").get("count").longValue(),
                            scope.get("released_to_rejected").get("count").longValue(),
                            scope.get("rejected_to_released").get("count").longValue()))
                    .as("changes in %s", scope)
                    .containsOnly(0L);
        }
        assertThat(result.get("rows_read").longValue()).isGreaterThanOrEqualTo(rowsBeforeTheEnd());
    }

    @Test
    void underOtherLimitsItFlipsWhatTheReferenceModelFlips() throws IOException {
        Map<String, Expected> expected = expectedUnder(PROPOSED);

        Map<String, JsonNode> scopes = ourScopes(backtest(PROPOSED, "--json"));

        assertThat(scopes.keySet()).isEqualTo(expected.keySet());
        long flips = 0;
        for (Map.Entry<String, Expected> scope : expected.entrySet()) {
            JsonNode found = scopes.get(scope.getKey());
            assertThat(Expected.of(found)).as("scope %s", scope.getKey()).isEqualTo(scope.getValue());
            flips += scope.getValue().approvedToRejected()[0] + scope.getValue().rejectedToApproved()[0];
        }
        assertThat(flips).as("the proposed limits flip something").isGreaterThan(20);
    }

    @Test
    void theTextReportHasARowPerScopeAndTheRowsReadPerSecond() throws IOException {
        CliRun run = run(PROPOSED);

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out())
                .contains("against 9 proposed limit rows", "approved->rejected", "rejected->approved")
                .containsPattern("(?m)^" + WIRE + "\\s+OUT\\s+" + ENTITIES[3] + "\\s+1\\s+\\d+")
                .containsPattern("(?m)^total\\s+")
                .containsPattern("rows read: \\d+ in \\d+\\.\\d\\d s \\(\\d+ rows/s\\)");
    }

    /**
     * A reversal released 700 of its original when it was decided; the original has been deleted past
     * retention since. The replay cannot decide it again: it is counted apart, not as released->rejected.
     */
    @Test
    void aReleaseWhoseOriginalWasArchivedIsReportedApartAndIsNoFlip() throws IOException {
        UUID entity = UUID.randomUUID();
        new JdbcTemplate(TestInfrastructure.get().dataSource()).update("""
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, decided_at, type, reverses,
                                              released_amount, released_count, remaining)
                VALUES (?, ?, 'OUT', gen_random_uuid(), '2026-11-02 10:00', 'RELEASED', 700, 'USD',
                        '2026-11-02 10:15Z', 'REVERSAL', gen_random_uuid(), 700, 1, 0)
                """, entity, ARCHIVED);

        JsonNode result = backtest(List.of(row(ARCHIVED, "*", null, Window.LAST_24_HOURS, 1_000, 10)), "--json");

        JsonNode scope = ourScopes(result).get(ARCHIVED + "/*/");
        assertThat(scope.get("original_archived").get("count").longValue()).isEqualTo(1);
        assertThat(scope.get("original_archived").get("amount").longValue()).isEqualTo(700);
        assertThat(scope.get("reversals").longValue()).isZero();
        assertThat(scope.get("released_to_rejected").get("count").longValue()).isZero();
    }

    /**
     * Three keys' hold lifecycles as the decider files them, replayed under a tighter txn cap and 24-hour
     * limit: an expiry filed at the start of a later batch frees the hold's amount at its recorded time, a
     * capture's excess is counted anew, an increment is decided again against the hold's new total.
     */
    @Test
    void holdsAreReplayedWithTheirCapturesIncrementsAndExpiries() throws IOException {
        JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
        Instant nine = Instant.parse("2026-11-02T09:10:00Z");
        // an expiry: the hold of 550 expires at 11:10 and is filed by the batch of 11:40, before its event
        UUID expiring = UUID.randomUUID();
        UUID expiringKey = UUID.randomUUID();
        fileAuthorization(db, expiringKey, expiring, "APPROVED", null, 550, nine, nine.plus(Duration.ofHours(2)));
        fileAuthorization(
                db, expiringKey, UUID.randomUUID(), "APPROVED", null, 500, nine.plus(Duration.ofHours(1)), null);
        db.update("""
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, occurred_at, decided_at, decided_order,
                                              type, original, released_amount, released_count, remaining,
                                              hold_expires_at)
                VALUES (?, ?, 'OUT', gen_random_uuid(), '2026-11-02 11:00', 'EXPIRED', 550, 'USD',
                        '2026-11-02 11:10Z', '2026-11-02 11:40Z', -1, 'EXPIRY', ?, 550, 1, 0, '2026-11-02 11:10Z')
                """, expiringKey, HELD, expiring);
        fileAuthorization(
                db, expiringKey, UUID.randomUUID(), "APPROVED", null, 500, Instant.parse("2026-11-02T11:40:00Z"), null);
        // a capture of 900 of a hold of 600
        UUID captured = UUID.randomUUID();
        UUID capturedKey = UUID.randomUUID();
        fileAuthorization(db, capturedKey, captured, "APPROVED", null, 600, nine, nine.plus(Duration.ofDays(7)));
        db.update("""
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, occurred_at, decided_at, type, original,
                                              final, captured, over_captured, released_amount, released_count,
                                              remaining)
                VALUES (?, ?, 'OUT', gen_random_uuid(), '2026-11-02 10:00', 'CAPTURED', 900, 'USD',
                        '2026-11-02 10:10Z', '2026-11-02 10:10Z', 'CAPTURE', ?, true, 600, 300, 0, 0, 900)
                """, capturedKey, HELD, captured);
        fileAuthorization(
                db, capturedKey, UUID.randomUUID(), "APPROVED", null, 200, nine.plus(Duration.ofHours(2)), null);
        // an increment of 300 of a hold of 400
        UUID incremented = UUID.randomUUID();
        UUID incrementedKey = UUID.randomUUID();
        fileAuthorization(db, incrementedKey, incremented, "APPROVED", null, 400, nine, nine.plus(Duration.ofDays(7)));
        db.update("""
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, occurred_at, decided_at, type, original,
                                              hold_expires_at)
                VALUES (?, ?, 'OUT', gen_random_uuid(), '2026-11-02 10:00', 'APPROVED', 300, 'USD',
                        '2026-11-02 10:10Z', '2026-11-02 10:10Z', 'INCREMENT', ?, '2026-11-09 09:10Z')
                """, incrementedKey, HELD, incremented);
        fileAuthorization(
                db,
                incrementedKey,
                UUID.randomUUID(),
                "REJECTED",
                "LIMIT_24H_AMOUNT",
                500,
                nine.plus(Duration.ofHours(2)),
                null);

        JsonNode scope = ourScopes(backtest(
                        List.of(
                                row(HELD, "*", null, Window.LAST_24_HOURS, 1_000, 100),
                                row(HELD, "*", null, Window.TXN, 600, 0)),
                        "--json"))
                .get(HELD + "/*/");

        assertThat(scope.get("keys").longValue()).isEqualTo(3);
        assertThat(scope.get("authorizations").longValue())
                .as("7 authorizations and the increment")
                .isEqualTo(8);
        assertThat(scope.get("reversals").longValue()).isZero();
        JsonNode toRejected = scope.get("approved_to_rejected");
        assertThat(countAndAmount(toRejected))
                .as("the 500 while the hold of 550 is open, the 200 after the capture's 300, the increment")
                .isEqualTo("3/1000");
        assertThat(countAndAmount(toRejected.get("by_reason").get("LIMIT_24H_AMOUNT")))
                .isEqualTo("2/700");
        assertThat(countAndAmount(toRejected.get("by_reason").get("LIMIT_TXN_AMOUNT")))
                .isEqualTo("1/300");
        assertThat(countAndAmount(scope.get("rejected_to_approved")))
                .as("the 500 once the increment is not counted")
                .isEqualTo("1/500");
    }

    /**
     * An authorization the log rejected, on a channel whose authorizations are holds (risk.holds.channels,
     * read from the service's settings as the decider reads them), approved by the proposed limits: it is
     * replayed as the hold the decider would have made of it, which expires at the hold time (risk.holds.ttl)
     * after it was decided and gives its amount back before a later authorization of its key.
     */
    @Test
    void aRejectedAuthorizationTheProposedLimitsApproveOnAHoldChannelIsReplayedAsAHoldThatExpires() throws IOException {
        JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
        Instant nine = Instant.parse("2026-11-03T09:10:00Z");
        UUID entity = UUID.randomUUID();
        String file = """
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, reason, amount, currency, occurred_at, decided_at, type)
                VALUES (?, ?, 'OUT', gen_random_uuid(), date_trunc('hour', CAST(? AS timestamptz) AT TIME ZONE 'UTC'),
                        ?, ?, 600, 'USD', CAST(? AS timestamptz), CAST(? AS timestamptz), 'AUTHORIZATION')
                """;
        db.update(
                file,
                entity,
                HELD_IF_APPROVED,
                nine.toString(),
                "REJECTED",
                "LIMIT_24H_AMOUNT",
                nine.toString(),
                nine.toString());
        Instant twelve = nine.plus(Duration.ofHours(3));
        db.update(
                file,
                entity,
                HELD_IF_APPROVED,
                twelve.toString(),
                "APPROVED",
                null,
                twelve.toString(),
                twelve.toString());

        JsonNode scope;
        System.setProperty("risk.holds.channels", HELD_IF_APPROVED);
        System.setProperty("risk.holds.ttl", "2h");
        try {
            scope = ourScopes(backtest(
                            List.of(row(HELD_IF_APPROVED, "*", null, Window.LAST_24_HOURS, 1_000, 100)), "--json"))
                    .get(HELD_IF_APPROVED + "/*/");
        } finally {
            System.clearProperty("risk.holds.channels");
            System.clearProperty("risk.holds.ttl");
        }

        assertThat(countAndAmount(scope.get("rejected_to_approved"))).isEqualTo("1/600");
        assertThat(countAndAmount(scope.get("approved_to_rejected")))
                .as("the 600 of 12:10 fits: the hold of 09:10 expired at 11:10")
                .isEqualTo("0/0");
    }

    private static String countAndAmount(JsonNode change) {
        return change.get("count").longValue() + "/" + change.get("amount").longValue();
    }

    private static void fileAuthorization(
            JdbcTemplate db,
            UUID entity,
            UUID dedupeId,
            String decision,
            String reason,
            long amount,
            Instant decidedAt,
            Instant holdExpiresAt) {
        db.update(
                """
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, reason, amount, currency, occurred_at, decided_at,
                                              type, hold_expires_at)
                VALUES (?, ?, 'OUT', ?, date_trunc('hour', CAST(? AS timestamptz) AT TIME ZONE 'UTC'), ?, ?, ?,
                        'USD', CAST(? AS timestamptz), CAST(? AS timestamptz), 'AUTHORIZATION',
                        CAST(? AS timestamptz))
                """,
                entity,
                HELD,
                dedupeId,
                decidedAt.toString(),
                decision,
                reason,
                amount,
                decidedAt.toString(),
                decidedAt.toString(),
                holdExpiresAt == null ? null : holdExpiresAt.toString());
    }

    /**
     * The archiver deletes what is older than now minus risk.retention (32 days in the test settings):
     * a period whose 24-hour windows reach before that would start from too little usage.
     */
    @Test
    void aFromWhoseWindowsReachPastRetentionIsRefusedNamingTheEarliestFrom() throws IOException {
        JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
        Instant cutoffBefore = retentionCutoff(db);
        Instant from = cutoffBefore.plus(Duration.ofHours(2));

        CliRun run = runWithoutRetention(
                List.of(row(CARD, "*", null, Window.LAST_24_HOURS, 30_000, 12)), from, from.plus(Duration.ofDays(2)));

        Instant cutoffAfter = retentionCutoff(db); // the database's hour may have turned meanwhile
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
        assertThat(run.err())
                .as(run.toString())
                .contains("--from " + from)
                .containsAnyOf(
                        "earliest --from the audit log supports is " + cutoffBefore.plus(Duration.ofHours(23)),
                        "earliest --from the audit log supports is " + cutoffAfter.plus(Duration.ofHours(23)));
        assertThat(run.out()).isEmpty();
    }

    /**
     * While a backtest's read is open (its transaction and cursor mid-stream), a decider's transaction
     * on another connection takes a key's advisory lock, writes both tables and commits; a block would
     * end it with the statement timeout. The read holds no lock but ACCESS SHARE on what it reads, and
     * sees none of what was committed after it began.
     */
    @Test
    void aBacktestReadingTheLogHoldsUpNoDecision() throws SQLException {
        TestInfrastructure infrastructure = TestInfrastructure.get();
        BusinessKey lateKey =
                new BusinessKey(UUID.fromString("ffffffff-ffff-4fff-bfff-ffffffffffff"), LATE, Direction.IN);
        List<BusinessKey> seen = new ArrayList<>();
        List<String> readerLocks = new ArrayList<>();
        try (Connection reader = connect(infrastructure);
                Connection decider = connect(infrastructure)) {
            long readerPid = pid(reader);
            long rows = new AuditLogStream(reader, HoldTerms.DEFAULT).read(FROM, TO, keyHistory -> {
                if (seen.isEmpty()) {
                    readerLocks.addAll(locksOf(decider, readerPid));
                    decideMeanwhile(decider, lateKey);
                }
                seen.add(keyHistory.key());
            });

            assertThat(rows).isGreaterThanOrEqualTo(rowsBeforeTheEnd());
        }
        assertThat(seen).containsAll(KEYS).doesNotContain(lateKey);
        assertThat(readerLocks)
                .isNotEmpty()
                .allMatch(lock -> lock.equals("relation AccessShareLock") || lock.equals("virtualxid ExclusiveLock"));
    }

    /** What a decider's batch does: the key's advisory lock, an audit row, a bucket, commit. */
    private static void decideMeanwhile(Connection decider, BusinessKey key) {
        try (Statement statement = decider.createStatement()) {
            decider.setAutoCommit(false);
            statement.execute("SET LOCAL statement_timeout = '5s'");
            statement.execute("SELECT pg_advisory_xact_lock(risk_business_key_hash('" + key.entityId() + "', '"
                    + key.channel() + "', '" + key.direction() + "'))");
            statement.executeUpdate("""
                    INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                                  decision, amount, currency, decided_at)
                    VALUES ('%s', '%s', '%s', gen_random_uuid(), '2026-11-02 10:00', 'APPROVED', 100, 'USD',
                            '2026-11-02 10:15Z')
                    """.formatted(key.entityId(), key.channel(), key.direction()));
            statement.executeUpdate("""
                    INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
                    VALUES ('%s', '%s', '%s', '2026-11-02 10:00', 100, 1)
                    """.formatted(key.entityId(), key.channel(), key.direction()));
            decider.commit();
        } catch (SQLException blocked) {
            throw new AssertionError("the decider's transaction failed while the backtest read", blocked);
        }
    }

    private static List<String> locksOf(Connection observer, long pid) {
        List<String> locks = new ArrayList<>();
        try (Statement statement = observer.createStatement();
                ResultSet rs =
                        statement.executeQuery("SELECT locktype || ' ' || mode FROM pg_locks WHERE pid = " + pid)) {
            while (rs.next()) {
                locks.add(rs.getString(1));
            }
        } catch (SQLException failed) {
            throw new AssertionError(failed);
        }
        return locks;
    }

    private static long pid(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static Connection connect(TestInfrastructure infrastructure) throws SQLException {
        return DriverManager.getConnection(
                infrastructure.jdbcUrl(), infrastructure.username(), infrastructure.password());
    }

    private JsonNode backtest(List<LimitRow> limits, String... more) throws IOException {
        CliRun run = run(limits, more);
        assertThat(run.exitCode()).as(run.toString()).isZero();
        return JSON.readTree(run.out());
    }

    private static Instant retentionCutoff(JdbcTemplate db) {
        return db.queryForObject(
                        "SELECT date_trunc('hour', now() AT TIME ZONE 'UTC' - interval '32 days')", LocalDateTime.class)
                .toInstant(ZoneOffset.UTC);
    }

    // the history is filed on fixed dates and nothing archives it: this database keeps it all
    private CliRun run(List<LimitRow> limits, String... more) throws IOException {
        List<String> arguments = new ArrayList<>(List.of("--retention=3650d"));
        arguments.addAll(List.of(more));
        return run(limits, FROM, TO, arguments);
    }

    private CliRun runWithoutRetention(List<LimitRow> limits, Instant from, Instant to) throws IOException {
        return run(limits, from, to, List.of());
    }

    private CliRun run(List<LimitRow> limits, Instant from, Instant to, List<String> more) throws IOException {
        Path csv = files.resolve("limits-" + UUID.randomUUID() + ".csv");
        StringBuilder text = new StringBuilder("channel,direction,entity_id,window,max_amount,max_count\n");
        for (LimitRow row : limits) {
            text.append(String.join(
                            ",",
                            row.channel(),
                            row.direction(),
                            row.entityId() == null ? "" : row.entityId().toString(),
                            row.window().label(),
                            Long.toString(row.maxAmount()),
                            Long.toString(row.maxCount())))
                    .append('\n');
        }
        Files.writeString(csv, text);
        TestInfrastructure infrastructure = TestInfrastructure.get();
        List<String> arguments = new ArrayList<>(List.of(
                "backtest",
                "--limits",
                csv.toString(),
                "--from",
                from.toString(),
                "--to",
                to.toString(),
                "--time-zone",
                NEW_YORK.getId(),
                "--jdbc-url=" + infrastructure.jdbcUrl(),
                "--db-user=" + infrastructure.username(),
                "--db-password=" + infrastructure.password()));
        arguments.addAll(more);
        return CliRun.of(arguments.toArray(String[]::new));
    }

    /** This run's scopes by "channel/direction/entity", the other keys' (unlimited) left out. */
    private static Map<String, JsonNode> ourScopes(JsonNode result) {
        Map<String, JsonNode> scopes = new HashMap<>();
        for (JsonNode scope : result.get("scopes")) {
            JsonNode name = scope.get("scope");
            if (!name.isNull()) {
                String channel = name.get("channel").stringValue();
                if (List.of(CARD, WIRE, ARCHIVED, HELD, HELD_IF_APPROVED).contains(channel)) {
                    JsonNode entity = name.get("entity_id");
                    scopes.put(
                            channel + "/" + name.get("direction").stringValue() + "/"
                                    + (entity.isNull() ? "" : entity.stringValue()),
                            scope);
                }
            }
        }
        return scopes;
    }

    /** The reference model's flips when it decides the period again under the limits. */
    private static Map<String, Expected> expectedUnder(List<LimitRow> limits) {
        Map<String, Expected> byScope = new HashMap<>();
        for (int key = 0; key < KEYS.size(); key++) {
            ModelledKey model = new ModelledKey(KEYS.get(key), limits, NEW_YORK);
            Expected expected = byScope.computeIfAbsent(scopeOf(KEYS.get(key), limits), scope -> Expected.empty());
            expected.keys()[0]++;
            for (HistoryEvent event : history.events) {
                if (event.key != key || !event.decidedAt.isBefore(TO)) {
                    continue;
                }
                if (event.decidedAt.isBefore(FROM)) {
                    model.applyStored(event);
                } else {
                    expected.count(event, model.decideAgain(event));
                }
            }
        }
        return byScope;
    }

    /** The most specific row matching the key, found naively. */
    private static String scopeOf(BusinessKey key, List<LimitRow> limits) {
        LimitRow winner = limits.stream()
                .filter(row ->
                        row.channel().equals(key.channel()) || row.channel().equals("*"))
                .filter(row -> row.direction().equals(key.direction().name())
                        || row.direction().equals("*"))
                .filter(row -> row.entityId() == null || row.entityId().equals(key.entityId()))
                .max(Comparator.comparingInt(row -> (row.entityId() == null ? 0 : 4)
                        + (row.channel().equals("*") ? 0 : 2)
                        + (row.direction().equals("*") ? 0 : 1)))
                .orElseThrow();
        return winner.channel() + "/" + winner.direction() + "/"
                + (winner.entityId() == null ? "" : winner.entityId().toString());
    }

    private static long rowsBeforeTheEnd() {
        return history.events.stream()
                .filter(event -> event.kind != HistoryEvent.Kind.INVALID && event.decidedAt.isBefore(TO))
                .count();
    }

    private static LimitRow row(String channel, String direction, UUID entity, Window window, long amount, long count) {
        return new LimitRow(channel, direction, entity, window, amount, count);
    }

    private static String uniqueChannel(String prefix) {
        return prefix
                + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36)
                        .toUpperCase();
    }
}
