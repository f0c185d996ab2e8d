package io.risklimits.decision.store;

import static io.risklimits.decision.store.SqlTime.timestamptz;
import static io.risklimits.decision.store.SqlTime.timestamptzText;
import static io.risklimits.decision.store.SqlTime.utcTimestamp;

import io.risklimits.decision.Conversion;
import io.risklimits.decision.Decision;
import io.risklimits.decision.DecisionJson;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import org.springframework.stereotype.Repository;

/**
 * Files a batch's decisions in risk_request_log, the audit log (one row per dedupe_id per business
 * key), each with its place in the batch: the limit-checked authorizations, the reversals and the
 * INVALID events that have a readable business key, one statement each. Every row keeps the event's
 * account_id, and an authorization's row the scopes it was checked at, so that a replay publishes the
 * decision as it was first published.
 */
@Repository
class RequestLogWriter {

    // A batch's decisions share a few sets of limits: each set is sent, and parsed, once (:limitSets),
    // and a decision names its set by number. The documents are json, not jsonb, which the database
    // stores as sent, without parsing them into a binary form. A dedupe_id filed already fails the
    // statement on the primary key (not ON CONFLICT DO NOTHING, whose check before each row reads
    // the index twice): the batch (BatchDecisionStore) then reads the stored decisions and decides again.
    private static final String INSERT_LIMIT_CHECKED_DECISIONS = """
            INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                          decision, reason, amount, currency, occurred_at,
                                          usage, limits, decided_at, type, decided_order,
                                          shadow_decision, shadow_reason, account_id, scopes,
                                          asked_hold_expires_at, hold_expires_at,
                                          counted_amount, fx_currency, fx_rate, fx_valid_from)
            SELECT decided.entity_id, decided.channel_code, decided.direction_code, decided.dedupe_id, :bucket,
                   decided.decision, decided.reason, decided.amount, decided.currency, decided.occurred_at,
                   decided.usage, limit_set.limits, :decidedAt, 'AUTHORIZATION', decided.decided_order,
                   decided.shadow_decision, decided.shadow_reason, decided.account_id, decided.scopes,
                   decided.asked_hold_expires_at, decided.hold_expires_at,
                   decided.counted_amount, decided.fx_currency, decided.fx_rate, decided.fx_valid_from
            FROM unnest(CAST(:entityIds AS uuid[]), CAST(:channels AS text[]), CAST(:directions AS text[]),
                        CAST(:dedupeIds AS uuid[]), CAST(:decisions AS text[]), CAST(:reasons AS text[]),
                        CAST(:amounts AS bigint[]), CAST(:currencies AS text[]), CAST(:occurredAts AS timestamptz[]),
                        CAST(:usages AS json[]), CAST(:limitSetNumbers AS integer[]), CAST(:decidedOrders AS integer[]),
                        CAST(:shadowDecisions AS text[]), CAST(:shadowReasons AS text[]),
                        CAST(:accountIds AS uuid[]), CAST(:scopes AS json[]),
                        CAST(:askedHoldExpiresAts AS timestamptz[]), CAST(:holdExpiresAts AS timestamptz[]),
                        CAST(:countedAmounts AS bigint[]), CAST(:fxCurrencies AS text[]),
                        CAST(:fxRates AS numeric[]), CAST(:fxValidFroms AS timestamptz[]))
                 AS decided (entity_id, channel_code, direction_code, dedupe_id, decision, reason,
                             amount, currency, occurred_at, usage, limit_set_number, decided_order,
                             shadow_decision, shadow_reason, account_id, scopes,
                             asked_hold_expires_at, hold_expires_at,
                             counted_amount, fx_currency, fx_rate, fx_valid_from)
            JOIN unnest(CAST(:limitSets AS json[])) WITH ORDINALITY AS limit_set (limits, number)
              ON limit_set.number = decided.limit_set_number
            """;

    // Follow-ups (reversals, captures, increments) and the expiries the batch made come in batches too,
    // with what each gave back or counted (an increment with the scopes it was checked at); a batch holds few of them,
    // so their limits are sent one document
    // per row (an expiry has none, nor usage).
    private static final String INSERT_FOLLOW_UP_DECISIONS = """
            INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                          decision, reason, amount, currency, occurred_at,
                                          usage, limits, decided_at, decided_order,
                                          type, reverses, released_amount, released_count, remaining, account_id,
                                          original, asked_hold_expires_at, final, hold_expires_at,
                                          captured, over_captured, scopes,
                                          counted_amount, fx_currency, fx_rate, fx_valid_from)
            SELECT entity_id, channel_code, direction_code, dedupe_id, :bucket,
                   decision, reason, amount, currency, occurred_at,
                   usage, limits, :decidedAt, decided_order,
                   type, reverses, released_amount, released_count, remaining, account_id,
                   original, asked_hold_expires_at, final, hold_expires_at, captured, over_captured, scopes,
                   counted_amount, fx_currency, fx_rate, fx_valid_from
            FROM unnest(CAST(:entityIds AS uuid[]), CAST(:channels AS text[]), CAST(:directions AS text[]),
                        CAST(:dedupeIds AS uuid[]), CAST(:decisions AS text[]), CAST(:reasons AS text[]),
                        CAST(:amounts AS bigint[]), CAST(:currencies AS text[]), CAST(:occurredAts AS timestamptz[]),
                        CAST(:usages AS json[]), CAST(:decidedOrders AS integer[]), CAST(:limits AS json[]),
                        CAST(:types AS text[]), CAST(:reverses AS uuid[]), CAST(:releasedAmounts AS bigint[]),
                        CAST(:releasedCounts AS smallint[]), CAST(:remainings AS bigint[]),
                        CAST(:accountIds AS uuid[]), CAST(:originals AS uuid[]),
                        CAST(:askedHoldExpiresAts AS timestamptz[]), CAST(:finals AS boolean[]),
                        CAST(:holdExpiresAts AS timestamptz[]), CAST(:captured AS bigint[]),
                        CAST(:overCaptured AS bigint[]), CAST(:scopes AS json[]), CAST(:countedAmounts AS bigint[]),
                        CAST(:fxCurrencies AS text[]), CAST(:fxRates AS numeric[]),
                        CAST(:fxValidFroms AS timestamptz[]))
                 AS decided (entity_id, channel_code, direction_code, dedupe_id, decision, reason,
                             amount, currency, occurred_at, usage, decided_order, limits, type, reverses,
                             released_amount, released_count, remaining, account_id, original,
                             asked_hold_expires_at, final, hold_expires_at, captured, over_captured, scopes,
                             counted_amount, fx_currency, fx_rate, fx_valid_from)
            """;

    // INVALID events that have a readable business key are filed in their poll's batch too, in their
    // place in its order; the columns that failed validation are null.
    private static final String INSERT_INVALID_DECISIONS = """
            INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                          decision, reason, amount, currency, occurred_at,
                                          errors, decided_at, decided_order, type, reverses, account_id,
                                          original, asked_hold_expires_at, final)
            SELECT entity_id, channel_code, direction_code, dedupe_id, :bucket,
                   'INVALID', 'INVALID_REQUEST', amount, currency, occurred_at,
                   errors, :decidedAt, decided_order, type, reverses, account_id,
                   original, asked_hold_expires_at, final
            FROM unnest(CAST(:entityIds AS uuid[]), CAST(:channels AS text[]), CAST(:directions AS text[]),
                        CAST(:dedupeIds AS uuid[]), CAST(:amounts AS bigint[]), CAST(:currencies AS text[]),
                        CAST(:occurredAts AS timestamptz[]), CAST(:errors AS jsonb[]),
                        CAST(:decidedOrders AS integer[]), CAST(:types AS text[]), CAST(:reverses AS uuid[]),
                        CAST(:accountIds AS uuid[]), CAST(:originals AS uuid[]),
                        CAST(:askedHoldExpiresAts AS timestamptz[]), CAST(:finals AS boolean[]))
                 AS decided (entity_id, channel_code, direction_code, dedupe_id, amount, currency, occurred_at,
                             errors, decided_order, type, reverses, account_id, original,
                             asked_hold_expires_at, final)
            """;

    /** How the decisions of one batch were made: their place in it, their hour bucket, the decision time. */
    record Batch(ToIntFunction<Decision> decidedOrder, Instant bucket, Instant decidedAt) {}

    /** Adds the insert of APPROVED and REJECTED authorizations made together to the round trip. */
    void insertAllLimitChecked(List<Decision> decisions, Batch batch, RoundTrip trip) {
        if (decisions.isEmpty()) {
            return;
        }
        // each distinct set of limits numbered from 1 (unnest's ordinality), in order of first use
        Map<String, Integer> limitSets = new LinkedHashMap<>();
        ColumnArrays<Decision> parameters = decidedTogether(decisions, batch)
                .add(
                        "limitSetNumbers",
                        decision -> limitSets.computeIfAbsent(
                                DecisionJson.limits(decision.limits()), limits -> limitSets.size() + 1),
                        Integer[]::new)
                .with("limitSets", limitSets.keySet().toArray(String[]::new))
                .add("shadowDecisions", RequestLogWriter::shadowDecision, String[]::new)
                .add("shadowReasons", RequestLogWriter::shadowReason, String[]::new)
                .add("scopes", DecisionJson::scopes, String[]::new)
                .add("holdExpiresAts", decision -> timestamptzText(decision.holdExpiresAt()), String[]::new);
        trip.execute(INSERT_LIMIT_CHECKED_DECISIONS, parameters.parameters());
    }

    /**
     * Adds the insert of follow-ups (reversals, captures, increments) and expiries made together to the
     * round trip.
     */
    void insertAllFollowUps(List<Decision> decisions, Batch batch, RoundTrip trip) {
        if (decisions.isEmpty()) {
            return;
        }
        ColumnArrays<Decision> parameters = decidedTogether(decisions, batch)
                .add(
                        "limits",
                        decision -> decision.limits() == null ? null : DecisionJson.limits(decision.limits()),
                        String[]::new)
                .add("types", decision -> decision.fields().type().name(), String[]::new)
                .add("reverses", decision -> decision.fields().reverses(), UUID[]::new)
                .add("releasedAmounts", RequestLogWriter::releasedAmount, Long[]::new)
                .add("releasedCounts", RequestLogWriter::releasedCount, Integer[]::new)
                .add("remainings", Decision::remaining, Long[]::new)
                .add("holdExpiresAts", decision -> timestamptzText(decision.holdExpiresAt()), String[]::new)
                .add("captured", Decision::captured, Long[]::new)
                .add("overCaptured", Decision::overCaptured, Long[]::new)
                .add("scopes", DecisionJson::scopes, String[]::new);
        trip.execute(INSERT_FOLLOW_UP_DECISIONS, parameters.parameters());
    }

    /** Adds the insert of INVALID decisions made together, under their readable business keys. */
    void insertAllInvalid(List<Decision> decisions, Batch batch, RoundTrip trip) {
        if (decisions.isEmpty()) {
            return;
        }
        ColumnArrays<Decision> parameters = filedTogether(decisions, batch)
                .add("errors", decision -> DecisionJson.errors(decision.errors()), String[]::new)
                .add(
                        "types",
                        decision -> decision.fields().type() == null
                                ? null
                                : decision.fields().type().name(),
                        String[]::new)
                .add("reverses", decision -> decision.fields().reverses(), UUID[]::new);
        trip.execute(INSERT_INVALID_DECISIONS, parameters.parameters());
    }

    /** The columns every decision made in a batch has, one array element per decision. */
    private static ColumnArrays<Decision> decidedTogether(List<Decision> decisions, Batch batch) {
        return filedTogether(decisions, batch)
                .add("countedAmounts", decision -> conversionOf(decision, Conversion::countedAmount), Long[]::new)
                .add("fxCurrencies", decision -> conversionOf(decision, Conversion::currency), String[]::new)
                .add(
                        "fxRates",
                        decision -> conversionOf(
                                decision, conversion -> conversion.rate().toPlainString()),
                        String[]::new)
                .add(
                        "fxValidFroms",
                        decision -> timestamptzText(conversionOf(decision, Conversion::validFrom)),
                        String[]::new)
                .add("decisions", decision -> decision.verdict().name(), String[]::new)
                .add(
                        "reasons",
                        decision -> decision.reason() == null
                                ? null
                                : decision.reason().name(),
                        String[]::new)
                .add(
                        "usages",
                        decision -> decision.usage() == null ? null : DecisionJson.usage(decision),
                        String[]::new);
    }

    /**
     * The columns every row filed in a batch has, INVALID ones included, one array element per decision:
     * the key, the dedupe_id, the echoed fields (account_id included; null where they failed validation or
     * were absent), the place in the batch.
     */
    private static ColumnArrays<Decision> filedTogether(List<Decision> decisions, Batch batch) {
        return ColumnArrays.keyed(
                        decisions, decision -> decision.fields().businessKey().orElseThrow())
                .add("dedupeIds", Decision::dedupeId, UUID[]::new)
                .add("amounts", decision -> decision.fields().amount(), Long[]::new)
                .add("currencies", decision -> decision.fields().currency(), String[]::new)
                .add(
                        "occurredAts",
                        decision -> timestamptzText(decision.fields().occurredAt()),
                        String[]::new)
                .add("accountIds", decision -> decision.fields().accountId(), UUID[]::new)
                .add("originals", decision -> decision.fields().original(), UUID[]::new)
                .add(
                        "askedHoldExpiresAts",
                        decision -> timestamptzText(decision.fields().holdExpiresAt()),
                        String[]::new)
                .add("finals", decision -> decision.fields().isFinal(), Boolean[]::new)
                .add("decidedOrders", decision -> batch.decidedOrder().applyAsInt(decision), Integer[]::new)
                .with("bucket", utcTimestamp(batch.bucket()))
                .with("decidedAt", timestamptz(batch.decidedAt()));
    }

    private static <T> T conversionOf(Decision decision, Function<Conversion, T> part) {
        return decision.conversion() == null ? null : part.apply(decision.conversion());
    }

    // the shadow_decision and shadow_reason columns: null where no shadow limits applied
    private static Long releasedAmount(Decision decision) {
        return decision.released() == null ? null : decision.released().amount();
    }

    private static Integer releasedCount(Decision decision) {
        return decision.released() == null ? null : (int) decision.released().count();
    }

    private static String shadowDecision(Decision decision) {
        return decision.shadow() == null ? null : decision.shadow().verdict().name();
    }

    private static String shadowReason(Decision decision) {
        return decision.shadow() == null || decision.shadow().reason() == null
                ? null
                : decision.shadow().reason().name();
    }
}
