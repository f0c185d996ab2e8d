package io.risklimits.decision.store;

import static io.risklimits.decision.store.SqlTime.instantFromTimestamptz;
import static io.risklimits.decision.store.SqlTime.instantFromUtcTimestamp;
import static io.risklimits.decision.store.SqlTime.timestamptz;
import static io.risklimits.decision.store.SqlTime.utcTimestamp;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.DecisionJson;
import io.risklimits.decision.Direction;
import io.risklimits.decision.EventFields;
import io.risklimits.decision.FieldError;
import io.risklimits.decision.Reason;
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
                   decision, reason, errors, usage, limits, bucket_ts, decided_at
            FROM risk_request_log
            WHERE entity_id = :entityId
              AND channel_code = :channel
              AND direction_code = :direction
              AND dedupe_id = :dedupeId
            """;

    private static final String INSERT_DECISION = """
            INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                          decision, reason, amount, currency, occurred_at,
                                          usage, limits, errors, decided_at)
            VALUES (:entityId, :channel, :direction, :dedupeId, :bucket,
                    :decision, :reason, :amount, :currency, :occurredAt,
                    CAST(:usage AS json), CAST(:limits AS json), CAST(:errors AS jsonb), :decidedAt)
            """;

    private static final String INSERT_KEYLESS_IF_NEW = """
            INSERT INTO risk_keyless_request_log (dedupe_id, entity_id, channel_code, direction_code, amount,
                                                  currency, occurred_at, errors, bucket_ts, decided_at)
            VALUES (:dedupeId, :entityId, :channel, :direction, :amount,
                    :currency, :occurredAt, CAST(:errors AS jsonb),
                    date_trunc('hour', clock_timestamp() AT TIME ZONE 'UTC'), clock_timestamp())
            ON CONFLICT (dedupe_id) DO NOTHING
            """;

    private static final String SELECT_KEYLESS = """
            SELECT dedupe_id, entity_id, channel_code, direction_code, amount, currency, occurred_at,
                   'INVALID' AS decision, 'INVALID_REQUEST' AS reason, errors,
                   NULL AS usage, NULL AS limits, NULL AS bucket_ts, decided_at
            FROM risk_keyless_request_log
            WHERE dedupe_id = :dedupeId
            """;

    private static final String SELECT_DECISIONS = """
            SELECT dedupe_id, entity_id, channel_code, direction_code, amount, currency, occurred_at,
                   decision, reason, errors, usage, limits, bucket_ts, decided_at
            FROM risk_request_log
            WHERE (entity_id, channel_code, direction_code, dedupe_id) IN (
                SELECT * FROM unnest(CAST(:entityIds AS uuid[]), CAST(:channels AS text[]),
                                     CAST(:directions AS text[]), CAST(:dedupeIds AS uuid[])))
            """;

    // Only APPROVED and REJECTED decisions come in batches; INVALID ones are filed one by one.
    // A batch's decisions share a few sets of limits: each set is sent, and parsed, once (:limitSets),
    // and a decision names its set by number. The documents are json, not jsonb: parsing them
    // into jsonb was the larger part of this statement's time. A dedupe_id filed already fails the
    // statement on the primary key (not ON CONFLICT DO NOTHING, whose check before each row reads the
    // index twice): the batch (BatchDecisionStore) then reads the stored decisions and decides again.
    private static final String INSERT_LIMIT_CHECKED_DECISIONS = """
            INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                          decision, reason, amount, currency, occurred_at,
                                          usage, limits, decided_at)
            SELECT decided.entity_id, decided.channel_code, decided.direction_code, decided.dedupe_id, :bucket,
                   decided.decision, decided.reason, decided.amount, decided.currency, decided.occurred_at,
                   decided.usage, limit_set.limits, :decidedAt
            FROM unnest(CAST(:entityIds AS uuid[]), CAST(:channels AS text[]), CAST(:directions AS text[]),
                        CAST(:dedupeIds AS uuid[]), CAST(:decisions AS text[]), CAST(:reasons AS text[]),
                        CAST(:amounts AS bigint[]), CAST(:currencies AS text[]), CAST(:occurredAts AS timestamptz[]),
                        CAST(:usages AS json[]), CAST(:limitSetNumbers AS integer[]))
                 AS decided (entity_id, channel_code, direction_code, dedupe_id, decision, reason,
                             amount, currency, occurred_at, usage, limit_set_number)
            JOIN unnest(CAST(:limitSets AS json[])) WITH ORDINALITY AS limit_set (limits, number)
              ON limit_set.number = decided.limit_set_number
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

    /**
     * Adds the read of the decisions already stored for these events to the round trip; the answer,
     * by business key and dedupe_id, once it has run.
     */
    Supplier<Map<RequestId, Decision>> findAll(List<TransactionEvent> events, RoundTrip trip) {
        MapSqlParameterSource parameters = KeyArrays.of(
                        events.stream().map(TransactionEvent::businessKey).toList())
                .parameters()
                .addValue(
                        "dedupeIds",
                        events.stream().map(TransactionEvent::dedupeId).toArray(UUID[]::new));
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
     * time) to the round trip.
     */
    void insertAllLimitChecked(List<Decision> decisions, Instant bucket, Instant decidedAt, RoundTrip trip) {
        if (decisions.isEmpty()) {
            return;
        }
        // each distinct set of limits numbered from 1 (unnest's ordinality), in order of first use
        Map<String, Integer> limitSets = new LinkedHashMap<>();
        Integer[] limitSetNumbers = decisions.stream()
                .map(decision -> limitSets.computeIfAbsent(
                        DecisionJson.limits(decision.limits()), limits -> limitSets.size() + 1))
                .toArray(Integer[]::new);
        MapSqlParameterSource parameters = KeyArrays.of(decisions.stream()
                        .map(decision -> decision.fields().businessKey().orElseThrow())
                        .toList())
                .parameters()
                .addValue(
                        "dedupeIds", decisions.stream().map(Decision::dedupeId).toArray(UUID[]::new))
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
                                .map(decision -> decision.fields().occurredAt().toString())
                                .toArray(String[]::new))
                .addValue(
                        "usages",
                        decisions.stream()
                                .map(decision -> DecisionJson.usage(decision.usage()))
                                .toArray(String[]::new))
                .addValue("limitSets", limitSets.keySet().toArray(String[]::new))
                .addValue("limitSetNumbers", limitSetNumbers)
                .addValue("bucket", utcTimestamp(bucket))
                .addValue("decidedAt", timestamptz(decidedAt));
        trip.execute(INSERT_LIMIT_CHECKED_DECISIONS, parameters);
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
                .param("usage", invalid ? null : DecisionJson.usage(decision.usage()))
                .param("limits", invalid ? null : DecisionJson.limits(decision.limits()))
                .param("errors", invalid ? DecisionJson.errors(decision.errors()) : null)
                .param("decidedAt", timestamptz(decision.decidedAt()))
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
                instantFromTimestamptz(rs, "occurred_at"));
        String reason = rs.getString("reason");
        String usage = rs.getString("usage");
        String limits = rs.getString("limits");
        String errors = rs.getString("errors");
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
                false);
    }
}
