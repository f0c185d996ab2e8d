package io.risklimits.faults;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The guarantees of the contract, checked after a scenario from what is left in PostgreSQL and on
 * the topics. Each check names what it found, so a failed run says which promise broke and where.
 */
final class Invariants {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    record Check(String name, boolean passed, String detail) {}

    /** The limits a scenario sets on its channel: max amount and count per window, in hours. */
    record WindowLimit(int hours, long maxAmount, long maxCount) {}

    private final JdbcTemplate db;
    private final String bootstrapServers;
    private final String channel;
    private final ScenarioLoad load;

    Invariants(JdbcTemplate db, String bootstrapServers, String channel, ScenarioLoad load) {
        this.db = db;
        this.bootstrapServers = bootstrapServers;
        this.channel = channel;
        this.load = load;
    }

    /** dedupe_id -> number of audit rows of this scenario's channel. */
    Map<UUID, Integer> auditRows() {
        Map<UUID, Integer> rows = new HashMap<>();
        db.query(
                "SELECT dedupe_id, count(*) AS n FROM risk_request_log WHERE channel_code = ? GROUP BY dedupe_id",
                rs -> {
                    rows.put(rs.getObject("dedupe_id", UUID.class), rs.getInt("n"));
                },
                channel);
        return rows;
    }

    Check oneAuditRowEach() {
        Map<UUID, Integer> rows = auditRows();
        long missing =
                load.decidable().stream().filter(id -> !rows.containsKey(id)).count();
        long doubled = rows.values().stream().filter(n -> n != 1).count();
        long unexpected = rows.keySet().stream()
                .filter(id -> !load.decidable().contains(id))
                .count();
        return new Check(
                "one audit row per dedupe_id",
                missing == 0 && doubled == 0 && unexpected == 0,
                load.decidable().size() + " expected, " + missing + " missing, " + doubled + " doubled");
    }

    Check messagesAgree(String decisionsTopic) {
        Map<UUID, List<JsonNode>> messages = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : TopicReader.readAll(bootstrapServers, decisionsTopic)) {
            JsonNode json = JSON.readTree(record.value());
            messages.computeIfAbsent(UUID.fromString(json.get("dedupe_id").stringValue()), id -> new ArrayList<>())
                    .add(json);
        }
        Map<UUID, String[]> stored = new HashMap<>();
        db.query(
                "SELECT dedupe_id, decision, decided_at FROM risk_request_log WHERE channel_code = ?",
                rs -> {
                    stored.put(rs.getObject("dedupe_id", UUID.class), new String[] {
                        rs.getString("decision"),
                        rs.getObject("decided_at", OffsetDateTime.class)
                                .toInstant()
                                .toString()
                    });
                },
                channel);
        int missing = 0;
        int disagreeing = 0;
        int replays = 0;
        for (UUID id : load.decidable()) {
            List<JsonNode> forId = messages.getOrDefault(id, List.of());
            if (forId.isEmpty()) {
                missing++;
                continue;
            }
            replays += forId.size() - 1;
            JsonNode first = withoutReplayedFlag(forId.get(0));
            String[] row = stored.get(id);
            boolean agree = forId.stream()
                            .allMatch(message -> withoutReplayedFlag(message).equals(first))
                    && row != null
                    && row[0].equals(first.get("decision").stringValue())
                    && row[1].equals(
                            Instant.parse(first.get("decided_at").stringValue()).toString());
            if (!agree) {
                disagreeing++;
            }
        }
        return new Check(
                "decision messages: at least one each, all identical, equal to the audit row",
                missing == 0 && disagreeing == 0,
                missing + " missing, " + disagreeing + " disagreeing, " + replays + " extra (replayed)");
    }

    private static JsonNode withoutReplayedFlag(JsonNode message) {
        ObjectNode copy = ((ObjectNode) message).deepCopy();
        copy.remove("replayed");
        return copy;
    }

    /** Recomputed from the approved audit rows: for every hour with approvals, each window ending there. */
    Check noWindowExceeded(List<WindowLimit> limits) {
        Map<UUID, Map<LocalDateTime, long[]>> approved = countedByHour(COUNTED_BY_KEY_AND_HOUR);
        Integer rejections = db.queryForObject(
                "SELECT count(*) FROM risk_request_log WHERE channel_code = ? AND decision = 'REJECTED'",
                Integer.class,
                channel);
        return new Check(
                "no window of any key over its limit",
                windowsOver(approved, limits) == 0,
                approvals(approved) + " approved, " + rejections + " rejected over " + approved.size() + " keys, "
                        + windowsOver(approved, limits) + " windows over");
    }

    /** The same at the account scope: what the authorizations that named an account still count there. */
    Check noAccountWindowExceeded(WindowLimit limit) {
        Map<UUID, Map<LocalDateTime, long[]>> approved = countedByHour(COUNTED_BY_ACCOUNT_AND_HOUR);
        Integer rejections = db.queryForObject(
                "SELECT count(*) FROM risk_request_log WHERE channel_code = ? AND reason LIKE 'ACCOUNT_LIMIT_%'",
                Integer.class, channel);
        return new Check(
                "no window of any account over its limit",
                windowsOver(approved, List.of(limit)) == 0,
                approvals(approved) + " approved with an account over " + approved.size() + " accounts, " + rejections
                        + " rejected for the account's limit, " + windowsOver(approved, List.of(limit))
                        + " windows over");
    }

    private static long approvals(Map<UUID, Map<LocalDateTime, long[]>> counted) {
        return counted.values().stream()
                .flatMap(hours -> hours.values().stream())
                .mapToLong(hour -> hour[1])
                .sum();
    }

    /** How many windows, one ending at each hour with approvals of an owner, end over a limit. */
    private static int windowsOver(Map<UUID, Map<LocalDateTime, long[]>> counted, List<WindowLimit> limits) {
        int exceeded = 0;
        for (Map<LocalDateTime, long[]> hours : counted.values()) {
            for (LocalDateTime hour : hours.keySet()) {
                for (WindowLimit limit : limits) {
                    long amount = 0;
                    long count = 0;
                    for (Map.Entry<LocalDateTime, long[]> other : hours.entrySet()) {
                        if (!other.getKey().isAfter(hour) && other.getKey().isAfter(hour.minusHours(limit.hours()))) {
                            amount += other.getValue()[0];
                            count += other.getValue()[1];
                        }
                    }
                    if (amount > limit.maxAmount() || count > limit.maxCount()) {
                        exceeded++;
                    }
                }
            }
        }
        return exceeded;
    }

    // What the audit log says each key still counts per hour: its approved authorizations filed in that
    // hour, less what their RELEASED reversals gave back; an original released in full no longer counts.
    private static final String COUNTED_BY_KEY_AND_HOUR = """
            SELECT original.entity_id AS owner_id, original.bucket_ts,
                   sum(original.amount - coalesce(released.amount, 0)) AS amount,
                   count(*) FILTER (WHERE original.amount > coalesce(released.amount, 0)) AS n
            FROM risk_request_log original
            LEFT JOIN (SELECT entity_id, channel_code, direction_code, reverses, sum(released_amount) AS amount
                       FROM risk_request_log
                       WHERE channel_code = ? AND decision = 'RELEASED'
                       GROUP BY entity_id, channel_code, direction_code, reverses) AS released
              ON released.entity_id = original.entity_id
             AND released.channel_code = original.channel_code
             AND released.direction_code = original.direction_code
             AND released.reverses = original.dedupe_id
            WHERE original.channel_code = ? AND original.decision = 'APPROVED'
            GROUP BY original.entity_id, original.bucket_ts
            """;

    // The same per account (the authorizations that named one) and hour: where the account scope counts.
    private static final String COUNTED_BY_ACCOUNT_AND_HOUR = """
            SELECT original.account_id AS owner_id, original.bucket_ts,
                   sum(original.amount - coalesce(released.amount, 0)) AS amount,
                   count(*) FILTER (WHERE original.amount > coalesce(released.amount, 0)) AS n
            FROM risk_request_log original
            LEFT JOIN (SELECT entity_id, channel_code, direction_code, reverses, sum(released_amount) AS amount
                       FROM risk_request_log
                       WHERE channel_code = ? AND decision = 'RELEASED'
                       GROUP BY entity_id, channel_code, direction_code, reverses) AS released
              ON released.entity_id = original.entity_id
             AND released.channel_code = original.channel_code
             AND released.direction_code = original.direction_code
             AND released.reverses = original.dedupe_id
            WHERE original.channel_code = ? AND original.decision = 'APPROVED' AND original.account_id IS NOT NULL
            GROUP BY original.account_id, original.bucket_ts
            """;

    /** owner (entity or account) -> hour -> {amount, count} still counted, by one of the queries above. */
    private Map<UUID, Map<LocalDateTime, long[]>> countedByHour(String query) {
        Map<UUID, Map<LocalDateTime, long[]>> approved = new HashMap<>();
        db.query(
                query,
                rs -> {
                    approved.computeIfAbsent(rs.getObject("owner_id", UUID.class), key -> new HashMap<>())
                            .put(
                                    rs.getObject("bucket_ts", LocalDateTime.class),
                                    new long[] {rs.getLong("amount"), rs.getLong("n")});
                },
                channel,
                channel);
        return approved;
    }

    // What the audit log says each scope key still counts per hour: an approved authorization counts at
    // its business key and its entity, and at its account's channel and its account when it named one;
    // what its RELEASED reversals gave back is taken there, in its hour, whatever account they named.
    // Every bucket of the scenario's business keys, entities and accounts beside it; a row is a scope key
    // and hour whose bucket differs from the audit log (absent on either side: null).
    private static final String BUCKETS_DIFFERING_FROM_THE_AUDIT_LOG = """
            WITH counted AS (
                SELECT original.entity_id, original.channel_code, original.direction_code, original.account_id,
                       original.bucket_ts,
                       original.amount - coalesce(released.amount, 0) AS amount,
                       CASE WHEN original.amount > coalesce(released.amount, 0) THEN 1 ELSE 0 END AS n
                FROM risk_request_log original
                LEFT JOIN (SELECT entity_id, channel_code, direction_code, reverses, sum(released_amount) AS amount
                           FROM risk_request_log
                           WHERE channel_code = ? AND decision = 'RELEASED'
                           GROUP BY entity_id, channel_code, direction_code, reverses) AS released
                  ON released.entity_id = original.entity_id
                 AND released.channel_code = original.channel_code
                 AND released.direction_code = original.direction_code
                 AND released.reverses = original.dedupe_id
                WHERE original.channel_code = ? AND original.decision = 'APPROVED'
            ),
            expected AS (
                SELECT scope, owner_id, channel_code, direction_code, bucket_ts, sum(amount) AS amount, sum(n) AS n
                FROM (SELECT 'key' AS scope, entity_id AS owner_id, channel_code, direction_code, bucket_ts, amount, n
                      FROM counted
                      UNION ALL
                      SELECT 'entity', entity_id, '*', direction_code, bucket_ts, amount, n
                      FROM counted
                      UNION ALL
                      SELECT 'account_channel', account_id, channel_code, direction_code, bucket_ts, amount, n
                      FROM counted WHERE account_id IS NOT NULL
                      UNION ALL
                      SELECT 'account', account_id, '*', direction_code, bucket_ts, amount, n
                      FROM counted WHERE account_id IS NOT NULL) AS at_scope
                GROUP BY scope, owner_id, channel_code, direction_code, bucket_ts
            ),
            owners AS (
                SELECT entity_id AS owner_id FROM risk_request_log WHERE channel_code = ?
                UNION
                SELECT account_id FROM risk_request_log WHERE channel_code = ? AND account_id IS NOT NULL
            ),
            buckets AS (
                SELECT 'key' AS scope, entity_id AS owner_id, channel_code, direction_code, bucket_ts,
                       sum_amount AS amount, tx_count AS n
                FROM risk_hourly_agg
                WHERE channel_code = ?
                UNION ALL
                SELECT scope, owner_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count
                FROM risk_scope_hourly_agg
                WHERE owner_id IN (SELECT owner_id FROM owners)
            )
            SELECT scope, owner_id, channel_code, direction_code, bucket_ts,
                   expected.amount AS expected_amount, expected.n AS expected_count,
                   buckets.amount AS bucket_amount, buckets.n AS bucket_count
            FROM expected
            FULL JOIN buckets USING (scope, owner_id, channel_code, direction_code, bucket_ts)
            WHERE expected.amount IS DISTINCT FROM buckets.amount OR expected.n IS DISTINCT FROM buckets.n
            ORDER BY scope, owner_id, direction_code, bucket_ts
            """;

    /** At every scope key, each hour's bucket equals its approved audit rows less what their reversals released. */
    Check bucketsEqualApprovals() {
        List<String> differing = db.query(
                BUCKETS_DIFFERING_FROM_THE_AUDIT_LOG,
                (rs, rowNumber) -> rs.getString("scope") + ":" + rs.getObject("owner_id") + ":"
                        + rs.getString("channel_code") + ":" + rs.getString("direction_code") + " at "
                        + rs.getObject("bucket_ts", LocalDateTime.class) + ": audit "
                        + rs.getObject("expected_amount") + "/" + rs.getObject("expected_count") + ", bucket "
                        + rs.getObject("bucket_amount") + "/" + rs.getObject("bucket_count"),
                channel,
                channel,
                channel,
                channel,
                channel);
        Integer keys = db.queryForObject(
                "SELECT count(DISTINCT entity_id) FROM risk_hourly_agg WHERE channel_code = ?", Integer.class, channel);
        Integer scopeKeys = db.queryForObject("""
                SELECT count(*)
                FROM (SELECT DISTINCT scope, owner_id, channel_code, direction_code
                      FROM risk_scope_hourly_agg
                      WHERE owner_id IN (SELECT entity_id FROM risk_request_log WHERE channel_code = ?
                                         UNION
                                         SELECT account_id FROM risk_request_log WHERE channel_code = ?)) AS scope_keys
                """, Integer.class, channel, channel);
        return new Check(
                "hourly buckets at every scope equal the approved audit rows less what their reversals released",
                differing.isEmpty(),
                keys + " business keys and " + scopeKeys + " other scope keys; " + differing.size()
                        + " buckets differing"
                        + (differing.isEmpty()
                                ? ""
                                : ", among them " + differing.stream().limit(5).toList()));
    }

    /** Reversals of one original, on any partition and worker, never give back more than it counted. */
    Check noOriginalReleasedBeyondItsAmount() {
        List<String> overReleased = db.queryForList("""
                SELECT original.dedupe_id || ': ' || sum(reversal.released_amount) || ' of ' || original.amount
                FROM risk_request_log original
                JOIN risk_request_log reversal
                  ON reversal.entity_id = original.entity_id
                 AND reversal.channel_code = original.channel_code
                 AND reversal.direction_code = original.direction_code
                 AND reversal.reverses = original.dedupe_id
                 AND reversal.decision = 'RELEASED'
                WHERE original.channel_code = ?
                GROUP BY original.dedupe_id, original.amount
                HAVING sum(reversal.released_amount) > original.amount
                """, String.class, channel);
        Integer releases = db.queryForObject(
                "SELECT count(*) FROM risk_request_log WHERE channel_code = ? AND decision = 'RELEASED'",
                Integer.class,
                channel);
        return new Check(
                "no original released beyond its amount",
                overReleased.isEmpty(),
                releases + " releases of " + load.reversals() + " reversals sent; over-released: " + overReleased);
    }

    /** The usage reads rely on running totals: each bucket's must be the sum of its scope key's buckets so far. */
    Check runningTotalsArePrefixSums() {
        Integer wrong = db.queryForObject("""
                SELECT count(*)
                FROM (SELECT running_amount, running_count,
                             sum(sum_amount) OVER key_history AS expected_amount,
                             sum(tx_count)   OVER key_history AS expected_count
                      FROM risk_hourly_agg
                      WHERE channel_code = ?
                      WINDOW key_history AS (PARTITION BY entity_id, direction_code ORDER BY bucket_ts)) AS buckets
                WHERE running_amount <> expected_amount OR running_count <> expected_count
                """, Integer.class, channel);
        Integer wrongAtScopes = db.queryForObject("""
                SELECT count(*)
                FROM (SELECT running_amount, running_count,
                             sum(sum_amount) OVER scope_key_history AS expected_amount,
                             sum(tx_count)   OVER scope_key_history AS expected_count
                      FROM risk_scope_hourly_agg
                      WHERE owner_id IN (SELECT entity_id FROM risk_request_log WHERE channel_code = ?
                                         UNION
                                         SELECT account_id FROM risk_request_log WHERE channel_code = ?)
                      WINDOW scope_key_history AS (PARTITION BY scope, owner_id, channel_code, direction_code
                                                   ORDER BY bucket_ts)) AS buckets
                WHERE running_amount <> expected_amount OR running_count <> expected_count
                """, Integer.class, channel, channel);
        return new Check(
                "running totals equal the prefix sums of the buckets, at every scope",
                wrong != null && wrong == 0 && wrongAtScopes != null && wrongAtScopes == 0,
                wrong + " key buckets and " + wrongAtScopes + " other scope buckets with wrong running totals");
    }

    Check deadLettersPresent(String deadLetterTopic) {
        int deadLetters = TopicReader.readAll(bootstrapServers, deadLetterTopic).size();
        int expected = load.unreadable() + load.invalid();
        return new Check(
                "dead letters for every unreadable record and invalid event",
                deadLetters >= expected,
                deadLetters + " dead letters, at least " + expected + " expected");
    }

    Check nothingLeftBehind() {
        Integer locks = db.queryForObject("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'", Integer.class);
        Integer idle = db.queryForObject(
                "SELECT count(*) FROM pg_stat_activity WHERE state LIKE 'idle in transaction%'", Integer.class);
        return new Check(
                "no advisory lock or idle-in-transaction session left",
                locks == 0 && idle == 0,
                locks + " advisory locks, " + idle + " idle in transaction");
    }
}
