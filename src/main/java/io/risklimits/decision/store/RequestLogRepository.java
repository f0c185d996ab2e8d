package io.risklimits.decision.store;

import static io.risklimits.decision.store.SqlTime.instantFromTimestamptz;
import static io.risklimits.decision.store.SqlTime.instantFromUtcTimestamp;
import static io.risklimits.decision.store.SqlTime.timestamptz;
import static io.risklimits.decision.store.SqlTime.timestamptzText;
import static io.risklimits.decision.store.SqlTime.utcTimestamp;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.DecisionJson;
import io.risklimits.decision.Direction;
import io.risklimits.decision.EventFields;
import io.risklimits.decision.EventType;
import io.risklimits.decision.FieldError;
import io.risklimits.decision.Outcome;
import io.risklimits.decision.Reason;
import io.risklimits.decision.ReversalPolicy;
import io.risklimits.decision.Tally;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Verdict;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The audit log: risk_request_log (one row per dedupe_id per business key) and
 * risk_keyless_request_log (INVALID events without a readable business key).
 */
@Repository
class RequestLogRepository {

    private static final String SELECT_DECISION = """
            SELECT dedupe_id, entity_id, channel_code, direction_code, amount, currency, occurred_at,
                   decision, reason, errors, usage, limits, bucket_ts, decided_at,
                   type, reverses, released_amount, released_count, remaining, shadow_decision, shadow_reason
            FROM risk_request_log
            WHERE entity_id = :entityId
              AND channel_code = :channel
              AND direction_code = :direction
              AND dedupe_id = :dedupeId
            """;

    private static final String INSERT_DECISION = """
            INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                          decision, reason, amount, currency, occurred_at,
                                          usage, limits, errors, decided_at,
                                          type, reverses, released_amount, released_count, remaining,
                                          shadow_decision, shadow_reason)
            VALUES (:entityId, :channel, :direction, :dedupeId, :bucket,
                    :decision, :reason, :amount, :currency, :occurredAt,
                    CAST(:usage AS json), CAST(:limits AS json), CAST(:errors AS jsonb), :decidedAt,
                    :type, :reverses, :releasedAmount, :releasedCount, :remaining,
                    :shadowDecision, :shadowReason)
            """;

    private static final String INSERT_KEYLESS_IF_NEW = """
            INSERT INTO risk_keyless_request_log (dedupe_id, entity_id, channel_code, direction_code, amount,
                                                  currency, occurred_at, errors, bucket_ts, decided_at,
                                                  type, reverses)
            VALUES (:dedupeId, :entityId, :channel, :direction, :amount,
                    :currency, :occurredAt, CAST(:errors AS jsonb),
                    date_trunc('hour', clock_timestamp() AT TIME ZONE 'UTC'), clock_timestamp(),
                    :type, :reverses)
            ON CONFLICT (dedupe_id) DO NOTHING
            """;

    private static final String SELECT_KEYLESS = """
            SELECT dedupe_id, entity_id, channel_code, direction_code, amount, currency, occurred_at,
                   'INVALID' AS decision, 'INVALID_REQUEST' AS reason, errors,
                   NULL AS usage, NULL AS limits, NULL AS bucket_ts, decided_at,
                   type, reverses, CAST(NULL AS bigint) AS released_amount,
                   CAST(NULL AS smallint) AS released_count, CAST(NULL AS bigint) AS remaining,
                   CAST(NULL AS text) AS shadow_decision, CAST(NULL AS text) AS shadow_reason
            FROM risk_keyless_request_log
            WHERE dedupe_id = :dedupeId
            """;

    private static final String SELECT_DECISIONS = """
            SELECT dedupe_id, entity_id, channel_code, direction_code, amount, currency, occurred_at,
                   decision, reason, errors, usage, limits, bucket_ts, decided_at,
                   type, reverses, released_amount, released_count, remaining, shadow_decision, shadow_reason
            FROM risk_request_log
            WHERE (entity_id, channel_code, direction_code, dedupe_id) IN (
                SELECT * FROM unnest(CAST(:entityIds AS uuid[]), CAST(:channels AS text[]),
                                     CAST(:directions AS text[]), CAST(:dedupeIds AS uuid[])))
            """;

    // A batch's decisions share a few sets of limits: each set is sent, and parsed, once (:limitSets),
    // and a decision names its set by number. The documents are json, not jsonb, so the server only
    // checks their syntax (docs/adr/0003). A dedupe_id filed already fails the
    // statement on the primary key (not ON CONFLICT DO NOTHING, whose check before each row reads the
    // index twice): the batch (BatchDecisionStore) then reads the stored decisions and decides again.
    private static final String INSERT_LIMIT_CHECKED_DECISIONS = """
            INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                          decision, reason, amount, currency, occurred_at,
                                          usage, limits, decided_at, type, decided_order,
                                          shadow_decision, shadow_reason)
            SELECT decided.entity_id, decided.channel_code, decided.direction_code, decided.dedupe_id, :bucket,
                   decided.decision, decided.reason, decided.amount, decided.currency, decided.occurred_at,
                   decided.usage, limit_set.limits, :decidedAt, 'AUTHORIZATION', decided.decided_order,
                   decided.shadow_decision, decided.shadow_reason
            FROM unnest(CAST(:entityIds AS uuid[]), CAST(:channels AS text[]), CAST(:directions AS text[]),
                        CAST(:dedupeIds AS uuid[]), CAST(:decisions AS text[]), CAST(:reasons AS text[]),
                        CAST(:amounts AS bigint[]), CAST(:currencies AS text[]), CAST(:occurredAts AS timestamptz[]),
                        CAST(:usages AS json[]), CAST(:limitSetNumbers AS integer[]), CAST(:decidedOrders AS integer[]),
                        CAST(:shadowDecisions AS text[]), CAST(:shadowReasons AS text[]))
                 AS decided (entity_id, channel_code, direction_code, dedupe_id, decision, reason,
                             amount, currency, occurred_at, usage, limit_set_number, decided_order,
                             shadow_decision, shadow_reason)
            JOIN unnest(CAST(:limitSets AS json[])) WITH ORDINALITY AS limit_set (limits, number)
              ON limit_set.number = decided.limit_set_number
            """;

    // Reversals come in batches too, with what each gave back; a batch holds few of them, so their
    // limits are sent one document per row.
    private static final String INSERT_REVERSAL_DECISIONS = """
            INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                          decision, reason, amount, currency, occurred_at,
                                          usage, limits, decided_at, decided_order,
                                          type, reverses, released_amount, released_count, remaining)
            SELECT entity_id, channel_code, direction_code, dedupe_id, :bucket,
                   decision, reason, amount, currency, occurred_at,
                   usage, limits, :decidedAt, decided_order,
                   'REVERSAL', reverses, released_amount, released_count, remaining
            FROM unnest(CAST(:entityIds AS uuid[]), CAST(:channels AS text[]), CAST(:directions AS text[]),
                        CAST(:dedupeIds AS uuid[]), CAST(:decisions AS text[]), CAST(:reasons AS text[]),
                        CAST(:amounts AS bigint[]), CAST(:currencies AS text[]), CAST(:occurredAts AS timestamptz[]),
                        CAST(:usages AS json[]), CAST(:decidedOrders AS integer[]), CAST(:limits AS json[]),
                        CAST(:reverses AS uuid[]), CAST(:releasedAmounts AS bigint[]),
                        CAST(:releasedCounts AS smallint[]), CAST(:remainings AS bigint[]))
                 AS decided (entity_id, channel_code, direction_code, dedupe_id, decision, reason,
                             amount, currency, occurred_at, usage, decided_order, limits, reverses,
                             released_amount, released_count, remaining)
            """;

    // INVALID events that have a readable business key are filed in their poll's batch too, in their
    // place in its order; the columns that failed validation are null.
    private static final String INSERT_INVALID_DECISIONS = """
            INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                          decision, reason, amount, currency, occurred_at,
                                          errors, decided_at, decided_order, type, reverses)
            SELECT entity_id, channel_code, direction_code, dedupe_id, :bucket,
                   'INVALID', 'INVALID_REQUEST', amount, currency, occurred_at,
                   errors, :decidedAt, decided_order, type, reverses
            FROM unnest(CAST(:entityIds AS uuid[]), CAST(:channels AS text[]), CAST(:directions AS text[]),
                        CAST(:dedupeIds AS uuid[]), CAST(:amounts AS bigint[]), CAST(:currencies AS text[]),
                        CAST(:occurredAts AS timestamptz[]), CAST(:errors AS jsonb[]),
                        CAST(:decidedOrders AS integer[]), CAST(:types AS text[]), CAST(:reverses AS uuid[]))
                 AS decided (entity_id, channel_code, direction_code, dedupe_id, amount, currency, occurred_at,
                             errors, decided_order, type, reverses)
            """;

    // Each reversal's original as it stands under the key's lock: its type, decision and amount, and
    // the sum its RELEASED reversals gave back (risk_request_log_releases_idx). A missing row is an
    // original that is unknown under the key, or past retention. The row found stays locked until the
    // commit, so the archiver, which deletes a window's audit rows before its buckets, cannot delete
    // the original's hour before its release is written; a row the archiver is deleting is skipped
    // (past retention) rather than waited for.
    private static final String SELECT_ORIGINALS = """
            SELECT original.entity_id, original.channel_code, original.direction_code, original.dedupe_id,
                   original.type, original.decision, original.amount,
                   coalesce((SELECT sum(reversal.released_amount)
                             FROM risk_request_log reversal
                             WHERE reversal.entity_id = original.entity_id
                               AND reversal.channel_code = original.channel_code
                               AND reversal.direction_code = original.direction_code
                               AND reversal.reverses = original.dedupe_id
                               AND reversal.decision = 'RELEASED'), 0) AS released,
                   original.bucket_ts
            FROM risk_request_log original
            WHERE (original.entity_id, original.channel_code, original.direction_code, original.dedupe_id) IN (
                SELECT * FROM unnest(CAST(:entityIds AS uuid[]), CAST(:channels AS text[]),
                                     CAST(:directions AS text[]), CAST(:dedupeIds AS uuid[])))
            FOR KEY SHARE OF original SKIP LOCKED
            """;

    private final JdbcClient jdbc;

    RequestLogRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    Optional<Decision> find(BusinessKey key, UUID dedupeId) {
        return jdbc.sql(SELECT_DECISION)
                .param("entityId", key.entityId())
                .param("channel", key.channel())
                .param("direction", key.direction().name())
                .param("dedupeId", dedupeId)
                .query(RequestLogRepository::storedDecision)
                .optional();
    }

    /** A reversal's original as stored: what the reversal policy needs, and the bucket it was counted in. */
    record StoredOriginal(ReversalPolicy.Original original, Instant bucketTs) {

        StoredOriginal afterRelease(long amount) {
            ReversalPolicy.Original before = original;
            return new StoredOriginal(
                    new ReversalPolicy.Original(
                            before.type(), before.verdict(), before.amount(), before.released() + amount),
                    bucketTs);
        }
    }

    /**
     * Adds the read of the reversals' originals, by business key and the original's dedupe_id, to the
     * round trip; after the keys' locks, so what was released of each is final until the commit.
     */
    Supplier<Map<RequestId, StoredOriginal>> findOriginals(List<TransactionEvent> reversals, RoundTrip trip) {
        MapSqlParameterSource parameters = KeyArrays.of(
                        reversals.stream().map(TransactionEvent::businessKey).toList())
                .parameters()
                .addValue(
                        "dedupeIds",
                        reversals.stream().map(TransactionEvent::reverses).toArray(UUID[]::new));
        return trip.query(SELECT_ORIGINALS, parameters, rs -> {
            Map<RequestId, StoredOriginal> originals = new HashMap<>();
            while (rs.next()) {
                BusinessKey key = new BusinessKey(
                        rs.getObject("entity_id", UUID.class),
                        rs.getString("channel_code"),
                        Direction.valueOf(rs.getString("direction_code")));
                String type = rs.getString("type");
                Long amount = rs.getObject("amount", Long.class);
                originals.put(
                        new RequestId(key, rs.getObject("dedupe_id", UUID.class)),
                        new StoredOriginal(
                                new ReversalPolicy.Original(
                                        eventType(type),
                                        Verdict.valueOf(rs.getString("decision")),
                                        amount == null ? 0 : amount,
                                        rs.getLong("released")),
                                instantFromUtcTimestamp(rs, "bucket_ts")));
            }
            return originals;
        });
    }

    /**
     * Adds the read of the decisions already stored for these events to the round trip; the answer,
     * by business key and dedupe_id, once it has run.
     */
    Supplier<Map<RequestId, Decision>> findAll(List<RequestId> events, RoundTrip trip) {
        MapSqlParameterSource parameters = KeyArrays.of(
                        events.stream().map(RequestId::businessKey).toList())
                .parameters()
                .addValue("dedupeIds", events.stream().map(RequestId::dedupeId).toArray(UUID[]::new));
        return trip.query(SELECT_DECISIONS, parameters, rs -> {
            Map<RequestId, Decision> stored = new HashMap<>();
            while (rs.next()) {
                Decision decision = storedDecision(rs, rs.getRow());
                stored.put(RequestId.of(decision), decision);
            }
            return stored;
        });
    }

    /**
     * Adds the insert of APPROVED and REJECTED decisions made together (one bucket and one decision
     * time) to the round trip, each with its place in the batch.
     */
    void insertAllLimitChecked(
            List<Decision> decisions,
            ToIntFunction<Decision> decidedOrder,
            Instant bucket,
            Instant decidedAt,
            RoundTrip trip) {
        if (decisions.isEmpty()) {
            return;
        }
        // each distinct set of limits numbered from 1 (unnest's ordinality), in order of first use
        Map<String, Integer> limitSets = new LinkedHashMap<>();
        Integer[] limitSetNumbers = decisions.stream()
                .map(decision -> limitSets.computeIfAbsent(
                        DecisionJson.limits(decision.limits()), limits -> limitSets.size() + 1))
                .toArray(Integer[]::new);
        MapSqlParameterSource parameters = decidedTogether(decisions, decidedOrder, bucket, decidedAt)
                .addValue("limitSets", limitSets.keySet().toArray(String[]::new))
                .addValue("limitSetNumbers", limitSetNumbers)
                .addValue(
                        "shadowDecisions",
                        decisions.stream()
                                .map(RequestLogRepository::shadowDecision)
                                .toArray(String[]::new))
                .addValue(
                        "shadowReasons",
                        decisions.stream()
                                .map(RequestLogRepository::shadowReason)
                                .toArray(String[]::new));
        trip.execute(INSERT_LIMIT_CHECKED_DECISIONS, parameters);
    }

    /** Adds the insert of RELEASED and REJECTED reversals made together to the round trip. */
    void insertAllReversals(
            List<Decision> decisions,
            ToIntFunction<Decision> decidedOrder,
            Instant bucket,
            Instant decidedAt,
            RoundTrip trip) {
        if (decisions.isEmpty()) {
            return;
        }
        MapSqlParameterSource parameters = decidedTogether(decisions, decidedOrder, bucket, decidedAt)
                .addValue(
                        "limits",
                        decisions.stream()
                                .map(decision -> DecisionJson.limits(decision.limits()))
                                .toArray(String[]::new))
                .addValue(
                        "reverses",
                        decisions.stream()
                                .map(decision -> decision.fields().reverses())
                                .toArray(UUID[]::new))
                .addValue(
                        "releasedAmounts",
                        decisions.stream()
                                .map(decision -> decision.released() == null
                                        ? null
                                        : decision.released().amount())
                                .toArray(Long[]::new))
                .addValue(
                        "releasedCounts",
                        decisions.stream()
                                .map(decision -> decision.released() == null
                                        ? null
                                        : (int) decision.released().count())
                                .toArray(Integer[]::new))
                .addValue(
                        "remainings",
                        decisions.stream().map(Decision::remaining).toArray(Long[]::new));
        trip.execute(INSERT_REVERSAL_DECISIONS, parameters);
    }

    /** Adds the insert of INVALID decisions made together, under their readable business keys. */
    void insertAllInvalid(
            List<Decision> decisions,
            ToIntFunction<Decision> decidedOrder,
            Instant bucket,
            Instant decidedAt,
            RoundTrip trip) {
        if (decisions.isEmpty()) {
            return;
        }
        MapSqlParameterSource parameters = filedTogether(decisions, decidedOrder, bucket, decidedAt)
                .addValue(
                        "errors",
                        decisions.stream()
                                .map(decision -> DecisionJson.errors(decision.errors()))
                                .toArray(String[]::new))
                .addValue(
                        "types",
                        decisions.stream()
                                .map(decision -> decision.fields().type() == null
                                        ? null
                                        : decision.fields().type().name())
                                .toArray(String[]::new))
                .addValue(
                        "reverses",
                        decisions.stream()
                                .map(decision -> decision.fields().reverses())
                                .toArray(UUID[]::new));
        trip.execute(INSERT_INVALID_DECISIONS, parameters);
    }

    /** The columns every decision made in a batch has, one array element per decision. */
    private static MapSqlParameterSource decidedTogether(
            List<Decision> decisions, ToIntFunction<Decision> decidedOrder, Instant bucket, Instant decidedAt) {
        return filedTogether(decisions, decidedOrder, bucket, decidedAt)
                .addValue(
                        "decisions",
                        decisions.stream()
                                .map(decision -> decision.verdict().name())
                                .toArray(String[]::new))
                .addValue(
                        "reasons",
                        decisions.stream()
                                .map(decision -> decision.reason() == null
                                        ? null
                                        : decision.reason().name())
                                .toArray(String[]::new))
                .addValue(
                        "usages",
                        decisions.stream()
                                .map(decision -> DecisionJson.usage(decision.usage(), decision.limits()))
                                .toArray(String[]::new));
    }

    /**
     * The columns every row filed in a batch has, INVALID ones included, one array element per decision:
     * the key, the dedupe_id, the echoed fields (null where they failed validation), the place in the batch.
     */
    private static MapSqlParameterSource filedTogether(
            List<Decision> decisions, ToIntFunction<Decision> decidedOrder, Instant bucket, Instant decidedAt) {
        return KeyArrays.of(decisions.stream()
                        .map(decision -> decision.fields().businessKey().orElseThrow())
                        .toList())
                .parameters()
                .addValue(
                        "dedupeIds", decisions.stream().map(Decision::dedupeId).toArray(UUID[]::new))
                .addValue(
                        "amounts",
                        decisions.stream()
                                .map(decision -> decision.fields().amount())
                                .toArray(Long[]::new))
                .addValue(
                        "currencies",
                        decisions.stream()
                                .map(decision -> decision.fields().currency())
                                .toArray(String[]::new))
                .addValue(
                        "occurredAts",
                        decisions.stream()
                                .map(decision ->
                                        timestamptzText(decision.fields().occurredAt()))
                                .toArray(String[]::new))
                .addValue(
                        "decidedOrders",
                        decisions.stream()
                                .map(decision -> decidedOrder.applyAsInt(decision))
                                .toArray(Integer[]::new))
                .addValue("bucket", utcTimestamp(bucket))
                .addValue("decidedAt", timestamptz(decidedAt));
    }

    void insert(BusinessKey key, Decision decision) {
        EventFields fields = decision.fields();
        boolean invalid = decision.verdict() == Verdict.INVALID;
        Instant bucket = invalid ? decision.decidedAt().truncatedTo(ChronoUnit.HOURS) : decision.bucketTs();
        jdbc.sql(INSERT_DECISION)
                .param("entityId", key.entityId())
                .param("channel", key.channel())
                .param("direction", key.direction().name())
                .param("dedupeId", decision.dedupeId())
                .param("bucket", utcTimestamp(bucket))
                .param("decision", decision.verdict().name())
                .param(
                        "reason",
                        decision.reason() == null ? null : decision.reason().name())
                .param("amount", fields.amount())
                .param("currency", fields.currency())
                .param("occurredAt", timestamptz(fields.occurredAt()))
                .param("usage", invalid ? null : DecisionJson.usage(decision.usage(), decision.limits()))
                .param("limits", invalid ? null : DecisionJson.limits(decision.limits()))
                .param("errors", invalid ? DecisionJson.errors(decision.errors()) : null)
                .param("decidedAt", timestamptz(decision.decidedAt()))
                .param("type", fields.type() == null ? null : fields.type().name())
                .param("reverses", fields.reverses())
                .param(
                        "releasedAmount",
                        decision.released() == null ? null : decision.released().amount())
                .param(
                        "releasedCount",
                        decision.released() == null
                                ? null
                                : (int) decision.released().count())
                .param("remaining", decision.remaining())
                .param("shadowDecision", shadowDecision(decision))
                .param("shadowReason", shadowReason(decision))
                .update();
    }

    /**
     * Files an INVALID event that has no readable business key, unless its dedupe_id is filed
     * already; either way returns the one decision stored for that dedupe_id, marked as a replay
     * when it was stored before.
     */
    Decision insertKeylessIfNew(UUID dedupeId, EventFields fields, List<FieldError> errors) {
        int inserted = jdbc.sql(INSERT_KEYLESS_IF_NEW)
                .param("dedupeId", dedupeId)
                .param("entityId", fields.entityId())
                .param("channel", fields.channel())
                .param(
                        "direction",
                        fields.direction() == null ? null : fields.direction().name())
                .param("amount", fields.amount())
                .param("currency", fields.currency())
                .param("occurredAt", timestamptz(fields.occurredAt()))
                .param("errors", DecisionJson.errors(errors))
                .param("type", fields.type() == null ? null : fields.type().name())
                .param("reverses", fields.reverses())
                .update();
        Decision stored = jdbc.sql(SELECT_KEYLESS)
                .param("dedupeId", dedupeId)
                .query(RequestLogRepository::storedDecision)
                .single();
        return inserted == 1 ? stored : stored.asReplay();
    }

    private static Decision storedDecision(ResultSet rs, int rowNum) throws SQLException {
        String direction = rs.getString("direction_code");
        Long amount = rs.getObject("amount", Long.class);
        EventFields fields = new EventFields(
                rs.getObject("entity_id", UUID.class),
                rs.getString("channel_code"),
                direction == null ? null : Direction.valueOf(direction),
                amount,
                rs.getString("currency"),
                instantFromTimestamptz(rs, "occurred_at"),
                eventType(rs.getString("type")),
                rs.getObject("reverses", UUID.class));
        String reason = rs.getString("reason");
        Long releasedAmount = rs.getObject("released_amount", Long.class);
        String usage = rs.getString("usage");
        String limits = rs.getString("limits");
        String errors = rs.getString("errors");
        String shadowDecision = rs.getString("shadow_decision");
        String shadowReason = rs.getString("shadow_reason");
        return new Decision(
                rs.getObject("dedupe_id", UUID.class),
                fields,
                Verdict.valueOf(rs.getString("decision")),
                reason == null ? null : Reason.valueOf(reason),
                errors == null ? List.of() : DecisionJson.errors(errors),
                usage == null ? null : DecisionJson.usage(usage),
                limits == null ? null : DecisionJson.limits(limits),
                instantFromUtcTimestamp(rs, "bucket_ts"),
                instantFromTimestamptz(rs, "decided_at"),
                releasedAmount == null ? null : new Tally(releasedAmount, rs.getLong("released_count")),
                rs.getObject("remaining", Long.class),
                List.of(),
                shadowDecision == null
                        ? null
                        : new Outcome(
                                Verdict.valueOf(shadowDecision),
                                shadowReason == null ? null : Reason.valueOf(shadowReason)),
                false);
    }

    // the shadow_decision and shadow_reason columns: null where no shadow limits applied
    private static String shadowDecision(Decision decision) {
        return decision.shadow() == null ? null : decision.shadow().verdict().name();
    }

    private static String shadowReason(Decision decision) {
        return decision.shadow() == null || decision.shadow().reason() == null
                ? null
                : decision.shadow().reason().name();
    }

    private static EventType eventType(String type) {
        return type == null ? null : EventType.valueOf(type);
    }
}
