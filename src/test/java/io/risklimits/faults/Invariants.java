package io.risklimits.faults;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    // how PostgreSQL writes a timestamp as text
    private static final DateTimeFormatter SQL_TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

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
        Map<UUID, Map<LocalDateTime, long[]>> approved = approvedByKeyAndHour();
        int exceeded = 0;
        long approvals = 0;
        for (Map<LocalDateTime, long[]> hours : approved.values()) {
            for (LocalDateTime hour : hours.keySet()) {
                approvals += hours.get(hour)[1];
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
        Integer rejections = db.queryForObject(
                "SELECT count(*) FROM risk_request_log WHERE channel_code = ? AND decision = 'REJECTED'",
                Integer.class,
                channel);
        return new Check(
                "no window of any key over its limit",
                exceeded == 0,
                approvals + " approved, " + rejections + " rejected over " + approved.size() + " keys, " + exceeded
                        + " windows over");
    }

    // What the audit log says each key still counts per hour: its approved authorizations filed in that
    // hour, less what their RELEASED reversals gave back; an original released in full no longer counts.
    private static final String COUNTED_BY_KEY_AND_HOUR = """
            SELECT original.entity_id, original.bucket_ts,
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

    private Map<UUID, Map<LocalDateTime, long[]>> approvedByKeyAndHour() {
        Map<UUID, Map<LocalDateTime, long[]>> approved = new HashMap<>();
        db.query(
                COUNTED_BY_KEY_AND_HOUR,
                rs -> {
                    approved.computeIfAbsent(rs.getObject("entity_id", UUID.class), key -> new HashMap<>())
                            .put(
                                    rs.getObject("bucket_ts", LocalDateTime.class),
                                    new long[] {rs.getLong("amount"), rs.getLong("n")});
                },
                channel,
                channel);
        return approved;
    }

    Check bucketsEqualApprovals() {
        Set<String> fromLog = new HashSet<>();
        approvedByKeyAndHour()
                .forEach((entity, hours) -> hours.forEach((hour, counted) ->
                        fromLog.add(entity + ":" + hour.format(SQL_TIMESTAMP) + ":" + counted[0] + ":" + counted[1])));
        Set<String> fromBuckets = new HashSet<>(db.queryForList(
                "SELECT entity_id || ':' || bucket_ts || ':' || sum_amount || ':' || tx_count"
                        + " FROM risk_hourly_agg WHERE channel_code = ?",
                String.class,
                channel));
        return new Check(
                "hourly buckets equal the approved audit rows less what their reversals released",
                fromLog.equals(fromBuckets),
                fromBuckets.size() + " buckets, " + fromLog.size() + " from the audit rows");
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

    /** The usage reads rely on running totals: each bucket's must be the sum of its key's buckets so far. */
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
        return new Check(
                "running totals equal the prefix sums of the buckets",
                wrong != null && wrong == 0,
                wrong + " buckets with wrong running totals");
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
