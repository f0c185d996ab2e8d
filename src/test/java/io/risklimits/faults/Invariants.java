package io.risklimits.faults;

import io.risklimits.decision.hold.HoldTerms;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
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
    private final NamedParameterJdbcTemplate named;
    private final MapSqlParameterSource ofChannel;
    private final String bootstrapServers;
    private final String channel;
    private final ScenarioLoad load;

    Invariants(JdbcTemplate db, String bootstrapServers, String channel, ScenarioLoad load) {
        this.db = db;
        this.named = new NamedParameterJdbcTemplate(db);
        this.ofChannel = new MapSqlParameterSource("channel", channel);
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

    /**
     * The expiries the service filed: their dedupe_id -> the authorization each expired. Each is expected
     * when it expired an authorization of this scenario under its name-based dedupe_id.
     */
    Map<UUID, UUID> expiries() {
        Map<UUID, UUID> expiries = new HashMap<>();
        named.query(
                "SELECT dedupe_id, original FROM risk_request_log WHERE channel_code = :channel AND type = 'EXPIRY'",
                ofChannel,
                rs -> {
                    expiries.put(rs.getObject("dedupe_id", UUID.class), rs.getObject("original", UUID.class));
                });
        return expiries;
    }

    /** Every event's dedupe_id and every expiry's: what must have one audit row and a decision message. */
    private Set<UUID> expectedDecisions(Map<UUID, UUID> expiries) {
        Set<UUID> expected = new HashSet<>(load.decidable());
        expiries.forEach((expiry, original) -> {
            if (load.decidable().contains(original) && expiry.equals(HoldTerms.expiryId(original))) {
                expected.add(expiry);
            }
        });
        return expected;
    }

    Check oneAuditRowEach() {
        Map<UUID, Integer> rows = auditRows();
        Map<UUID, UUID> expiries = expiries();
        Set<UUID> expected = expectedDecisions(expiries);
        long missing =
                load.decidable().stream().filter(id -> !rows.containsKey(id)).count();
        long doubled = rows.values().stream().filter(n -> n != 1).count();
        long unexpected =
                rows.keySet().stream().filter(id -> !expected.contains(id)).count();
        return new Check(
                "one audit row per dedupe_id, and per expiry of an authorization",
                missing == 0 && doubled == 0 && unexpected == 0,
                load.decidable().size() + " expected and " + expiries.size() + " expiries, " + missing + " missing, "
                        + doubled + " doubled, " + unexpected + " unexpected");
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
        for (UUID id : expectedDecisions(expiries())) {
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
                "decision messages (expiries' too): at least one each, all identical, equal to the audit row",
                missing == 0 && disagreeing == 0,
                missing + " missing, " + disagreeing + " disagreeing, " + replays + " extra (replayed)");
    }

    private static JsonNode withoutReplayedFlag(JsonNode message) {
        ObjectNode copy = ((ObjectNode) message).deepCopy();
        copy.remove("replayed");
        return copy;
    }

    /**
     * Recomputed from what the limits admitted and still counts (authorizations and increments, not
     * over-captures, which count whatever the limits say): for every hour with approvals, each window
     * ending there.
     */
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

    // What the audit log and the ledgers say the channel's approved authorizations still count, as pieces
    // by hour: amount and count (what the buckets must hold), and of them what a limit admitted
    // (checked_amount, checked_count: the authorization and its approved increments, still counted).
    //   - an approved authorization without a ledger (never a hold, never captured or incremented): its
    //     amount less what its RELEASED reversals gave back, in its bucket_ts, counted while that is above 0;
    //   - one with a ledger: each counted part less what was released from it, in the part's hour, and its
    //     count of 1 in count_hour (null once nothing is counted); as admitted, its count in its own hour
    //     while its authorization or an increment still counts (a count that came back with a late capture
    //     was admitted by no limit);
    //   - a capture with no approved authorization decided before it: a spend of its own, counted in its
    //     own hour where the capture names, whatever the limits say.
    private static final String COUNTED = """
            counted AS (
                SELECT original.entity_id, original.channel_code, original.direction_code, original.account_id,
                       original.bucket_ts,
                       original.amount - coalesce(released.amount, 0) AS amount,
                       CASE WHEN original.amount > coalesce(released.amount, 0) THEN 1 ELSE 0 END AS n,
                       original.amount - coalesce(released.amount, 0) AS checked_amount,
                       CASE WHEN original.amount > coalesce(released.amount, 0) THEN 1 ELSE 0 END AS checked_n
                FROM risk_request_log original
                LEFT JOIN (SELECT entity_id, channel_code, direction_code, reverses, sum(released_amount) AS amount
                           FROM risk_request_log
                           WHERE channel_code = :channel AND decision = 'RELEASED'
                           GROUP BY entity_id, channel_code, direction_code, reverses) AS released
                  ON released.entity_id = original.entity_id
                 AND released.channel_code = original.channel_code
                 AND released.direction_code = original.direction_code
                 AND released.reverses = original.dedupe_id
                WHERE original.channel_code = :channel AND original.type = 'AUTHORIZATION'
                  AND original.decision = 'APPROVED'
                  AND NOT EXISTS (SELECT 1
                                  FROM risk_authorization_ledger ledger
                                  WHERE ledger.entity_id = original.entity_id
                                    AND ledger.channel_code = original.channel_code
                                    AND ledger.direction_code = original.direction_code
                                    AND ledger.dedupe_id = original.dedupe_id)
                UNION ALL
                SELECT ledger.entity_id, ledger.channel_code, ledger.direction_code, ledger.account_id,
                       CAST(CAST(part ->> 'hour' AS timestamptz) AT TIME ZONE 'UTC' AS timestamp),
                       CAST(part ->> 'amount' AS bigint) - CAST(part ->> 'released' AS bigint), 0,
                       CASE WHEN part ->> 'kind' = 'OVER_CAPTURE' THEN 0
                            ELSE CAST(part ->> 'amount' AS bigint) - CAST(part ->> 'released' AS bigint) END,
                       0
                FROM risk_authorization_ledger ledger
                CROSS JOIN LATERAL json_array_elements(ledger.parts) AS part
                WHERE ledger.channel_code = :channel
                UNION ALL
                SELECT ledger.entity_id, ledger.channel_code, ledger.direction_code, ledger.account_id,
                       ledger.count_hour, 0, 1, 0, 0
                FROM risk_authorization_ledger ledger
                WHERE ledger.channel_code = :channel AND ledger.count_hour IS NOT NULL
                UNION ALL
                SELECT ledger.entity_id, ledger.channel_code, ledger.direction_code, ledger.account_id,
                       ledger.bucket_ts, 0, 0, 0, 1
                FROM risk_authorization_ledger ledger
                WHERE ledger.channel_code = :channel
                  AND EXISTS (SELECT 1
                              FROM json_array_elements(ledger.parts) AS part
                              WHERE part ->> 'kind' <> 'OVER_CAPTURE'
                                AND CAST(part ->> 'amount' AS bigint) > CAST(part ->> 'released' AS bigint))
                UNION ALL
                SELECT capture.entity_id, capture.channel_code, capture.direction_code, capture.account_id,
                       capture.bucket_ts, capture.over_captured, 1, 0, 0
                FROM risk_request_log capture
                WHERE capture.channel_code = :channel AND capture.decision = 'CAPTURED'
                  AND NOT EXISTS (SELECT 1
                                  FROM risk_request_log original
                                  WHERE original.entity_id = capture.entity_id
                                    AND original.channel_code = capture.channel_code
                                    AND original.direction_code = capture.direction_code
                                    AND original.dedupe_id = capture.original
                                    AND original.type = 'AUTHORIZATION' AND original.decision = 'APPROVED'
                                    AND (original.decided_at, original.decided_order)
                                        < (capture.decided_at, capture.decided_order))
            )
            """;

    // What each key admitted and still counts per hour.
    private static final String COUNTED_BY_KEY_AND_HOUR = "WITH " + COUNTED + """
            SELECT entity_id AS owner_id, bucket_ts, sum(checked_amount) AS amount, sum(checked_n) AS n
            FROM counted
            GROUP BY entity_id, bucket_ts
            """;

    // The same per account (the authorizations that named one) and hour: where the account scope counts.
    private static final String COUNTED_BY_ACCOUNT_AND_HOUR = "WITH " + COUNTED + """
            SELECT account_id AS owner_id, bucket_ts, sum(checked_amount) AS amount, sum(checked_n) AS n
            FROM counted
            WHERE account_id IS NOT NULL
            GROUP BY account_id, bucket_ts
            """;

    /** owner (entity or account) -> hour -> {amount, count} still counted, by one of the queries above. */
    private Map<UUID, Map<LocalDateTime, long[]>> countedByHour(String query) {
        Map<UUID, Map<LocalDateTime, long[]>> approved = new HashMap<>();
        named.query(query, ofChannel, rs -> {
            approved.computeIfAbsent(rs.getObject("owner_id", UUID.class), key -> new HashMap<>())
                    .put(
                            rs.getObject("bucket_ts", LocalDateTime.class),
                            new long[] {rs.getLong("amount"), rs.getLong("n")});
        });
        return approved;
    }

    // What the audit log and the ledgers say each scope key still counts per hour (COUNTED): an approved
    // authorization counts at its business key and its entity, and at its account's channel and its
    // account when it named one; what was released of it is taken there, in the hours it was counted in,
    // whatever account the follow-up named. Every bucket of the scenario's business keys, entities and
    // accounts beside it; a row is a scope key and hour whose bucket differs (absent on either side: null).
    private static final String BUCKETS_DIFFERING_FROM_THE_AUDIT_LOG = "WITH " + COUNTED + ", " + """
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
                SELECT entity_id AS owner_id FROM risk_request_log WHERE channel_code = :channel
                UNION
                SELECT account_id FROM risk_request_log WHERE channel_code = :channel AND account_id IS NOT NULL
            ),
            buckets AS (
                SELECT 'key' AS scope, entity_id AS owner_id, channel_code, direction_code, bucket_ts,
                       sum_amount AS amount, tx_count AS n
                FROM risk_hourly_agg
                WHERE channel_code = :channel
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

    /**
     * At every scope key, each hour's bucket equals what the approved authorizations still count there (less
     * what their reversals released; by their ledgers, what holds, increments, captures and expiries left).
     */
    Check bucketsEqualApprovals() {
        List<String> differing = named.query(
                BUCKETS_DIFFERING_FROM_THE_AUDIT_LOG,
                ofChannel,
                (rs, rowNumber) -> rs.getString("scope") + ":" + rs.getObject("owner_id") + ":"
                        + rs.getString("channel_code") + ":" + rs.getString("direction_code") + " at "
                        + rs.getObject("bucket_ts", LocalDateTime.class) + ": audit "
                        + rs.getObject("expected_amount") + "/" + rs.getObject("expected_count") + ", bucket "
                        + rs.getObject("bucket_amount") + "/" + rs.getObject("bucket_count"));
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
                "hourly buckets at every scope equal what the approved authorizations still count (audit rows, ledgers)",
                differing.isEmpty(),
                keys + " business keys and " + scopeKeys + " other scope keys; " + differing.size()
                        + " buckets differing"
                        + (differing.isEmpty()
                                ? ""
                                : ", among them " + differing.stream().limit(5).toList()));
    }

    /**
     * Reversals of one original, on any partition and worker, never give back more than it counted. An
     * original with a ledger (a hold, or one a capture or an increment acted on) may have counted more than
     * its amount: {@link #ledgersAgreeWithTheAuditLog} checks it.
     */
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
                  AND NOT EXISTS (SELECT 1
                                  FROM risk_authorization_ledger ledger
                                  WHERE ledger.entity_id = original.entity_id
                                    AND ledger.channel_code = original.channel_code
                                    AND ledger.direction_code = original.direction_code
                                    AND ledger.dedupe_id = original.dedupe_id)
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

    // Each ledger of the channel beside its authorization and its follow-ups in the audit log, and what is
    // wrong with it; a ledger that agrees is no row. Its follow-ups: every reversal, increment, capture and
    // expiry naming it, but the captures decided before the authorization (each a spend of its own); an
    // expiry may be filed in the authorization's own batch, ordered before it, when the hold was due by
    // then. Counted parts: the authorization's amount, every approved increment, every over-capture;
    // released: what RELEASED reversals, final captures and the expiry gave back; still counted =
    // counted - released >= 0, each part between 0 and its amount, the count in an hour exactly while
    // something is counted, EXPIRED exactly when one expiry was filed.
    private static final String LEDGERS_DISAGREEING_WITH_THE_AUDIT_LOG = """
            SELECT ledger.dedupe_id,
                   concat_ws('; ',
                       CASE WHEN authorization_row.amount IS DISTINCT FROM parts.authorization_amount
                            THEN 'authorization ' || coalesce(authorization_row.decision, 'missing') || ' '
                                 || coalesce(CAST(authorization_row.amount AS text), '-') || ', part '
                                 || parts.authorization_amount END,
                       CASE WHEN parts.increments <> logged.increments
                            THEN 'increments ' || parts.increments || ', approved ' || logged.increments END,
                       CASE WHEN parts.over_captured <> logged.over_captured
                            THEN 'over-captured ' || parts.over_captured || ', logged ' || logged.over_captured END,
                       CASE WHEN ledger.captured <> logged.captured
                            THEN 'captured ' || ledger.captured || ', logged ' || logged.captured END,
                       CASE WHEN parts.released <> logged.released
                            THEN 'released ' || parts.released || ', logged ' || logged.released END,
                       CASE WHEN parts.counted < 0 OR parts.parts_out_of_range > 0
                            THEN 'counted ' || parts.counted || ', ' || parts.parts_out_of_range
                                 || ' parts released below 0 or beyond their amount' END,
                       CASE WHEN (ledger.count_hour IS NULL) <> (parts.counted = 0)
                            THEN 'count hour ' || coalesce(CAST(ledger.count_hour AS text), 'none')
                                 || ' with ' || parts.counted || ' counted' END,
                       CASE WHEN (ledger.status = 'EXPIRED') <> (logged.expiries = 1) OR logged.expiries > 1
                            THEN ledger.status || ' with ' || logged.expiries || ' expiries filed' END)
                       AS wrong,
                   parts.counted
            FROM risk_authorization_ledger ledger
            LEFT JOIN risk_request_log authorization_row
              ON authorization_row.entity_id = ledger.entity_id
             AND authorization_row.channel_code = ledger.channel_code
             AND authorization_row.direction_code = ledger.direction_code
             AND authorization_row.dedupe_id = ledger.dedupe_id
             AND authorization_row.type = 'AUTHORIZATION' AND authorization_row.decision = 'APPROVED'
            CROSS JOIN LATERAL (
                SELECT coalesce(sum(amount) FILTER (WHERE kind = 'AUTHORIZATION'), 0) AS authorization_amount,
                       coalesce(sum(amount) FILTER (WHERE kind = 'INCREMENT'), 0) AS increments,
                       coalesce(sum(amount) FILTER (WHERE kind = 'OVER_CAPTURE'), 0) AS over_captured,
                       coalesce(sum(released), 0) AS released,
                       coalesce(sum(amount - released), 0) AS counted,
                       count(*) FILTER (WHERE released < 0 OR released > amount) AS parts_out_of_range
                FROM (SELECT part ->> 'kind' AS kind, CAST(part ->> 'amount' AS bigint) AS amount,
                             CAST(part ->> 'released' AS bigint) AS released
                      FROM json_array_elements(ledger.parts) AS part) AS part) AS parts
            CROSS JOIN LATERAL (
                SELECT coalesce(sum(follow_up.amount)
                                    FILTER (WHERE follow_up.type = 'INCREMENT' AND follow_up.decision = 'APPROVED'),
                                0) AS increments,
                       coalesce(sum(follow_up.over_captured) FILTER (WHERE follow_up.decision = 'CAPTURED'), 0)
                           AS over_captured,
                       coalesce(sum(follow_up.captured + follow_up.over_captured)
                                    FILTER (WHERE follow_up.decision = 'CAPTURED'),
                                0) AS captured,
                       coalesce(sum(follow_up.released_amount)
                                    FILTER (WHERE follow_up.decision IN ('RELEASED', 'CAPTURED', 'EXPIRED')),
                                0) AS released,
                       count(*) FILTER (WHERE follow_up.decision = 'EXPIRED') AS expiries
                FROM risk_request_log follow_up
                WHERE follow_up.entity_id = ledger.entity_id
                  AND follow_up.channel_code = ledger.channel_code
                  AND follow_up.direction_code = ledger.direction_code
                  AND (follow_up.original = ledger.dedupe_id OR follow_up.reverses = ledger.dedupe_id)
                  AND (follow_up.decision <> 'CAPTURED'
                       OR (follow_up.decided_at, follow_up.decided_order)
                          > (authorization_row.decided_at, authorization_row.decided_order))) AS logged
            WHERE ledger.channel_code = :channel
            """;

    /**
     * Per authorization with a ledger: what it still counts = its amount + approved increments +
     * over-captures - everything released, never below 0, part by part as the audit log tells it.
     */
    Check ledgersAgreeWithTheAuditLog() {
        List<String> wrong = new ArrayList<>();
        long[] ledgers = new long[2];
        named.query(LEDGERS_DISAGREEING_WITH_THE_AUDIT_LOG, ofChannel, rs -> {
            ledgers[0]++;
            if (rs.getLong("counted") > 0) {
                ledgers[1]++;
            }
            String problems = rs.getString("wrong");
            if (!problems.isEmpty()) {
                wrong.add(rs.getObject("dedupe_id", UUID.class) + ": " + problems);
            }
        });
        return new Check(
                "per authorization, counted = amount + approved increments + over-captures - released >= 0 (ledger"
                        + " and audit log agree)",
                wrong.isEmpty(),
                ledgers[0] + " ledgers, " + ledgers[1] + " still counting, " + load.followUps()
                        + " captures and increments sent; " + wrong.size() + " wrong"
                        + (wrong.isEmpty()
                                ? ""
                                : ", among them " + wrong.stream().limit(5).toList()));
    }

    /**
     * No hold due within the hour is open any more (the scenario's short holds all expired, were captured
     * or released) and every expiry filed was recorded as sent.
     */
    Check holdsSettled() {
        Map<String, Object> left = named.queryForMap("""
                SELECT count(*) FILTER (WHERE status = 'OPEN' AND expires_at < now() + interval '1 hour') AS open,
                       count(*) FILTER (WHERE NOT expiry_published) AS unsent,
                       count(*) FILTER (WHERE status = 'EXPIRED') AS expired
                FROM risk_authorization_ledger
                WHERE channel_code = :channel
                """, ofChannel);
        long open = ((Number) left.get("open")).longValue();
        long unsent = ((Number) left.get("unsent")).longValue();
        return new Check(
                "every short hold closed, every expiry recorded as sent",
                open == 0 && unsent == 0,
                left.get("expired") + " expired, " + open + " short holds still open, " + unsent
                        + " expiries not recorded as sent");
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
