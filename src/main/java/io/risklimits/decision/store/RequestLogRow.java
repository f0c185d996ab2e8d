package io.risklimits.decision.store;

import static io.risklimits.decision.store.SqlTime.instantFromTimestamptz;
import static io.risklimits.decision.store.SqlTime.instantFromUtcTimestamp;

import io.risklimits.decision.Conversion;
import io.risklimits.decision.Decision;
import io.risklimits.decision.DecisionJson;
import io.risklimits.decision.Direction;
import io.risklimits.decision.EventFields;
import io.risklimits.decision.EventType;
import io.risklimits.decision.Outcome;
import io.risklimits.decision.Reason;
import io.risklimits.decision.Tally;
import io.risklimits.decision.Verdict;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;

/**
 * A row of the audit log read back as the decision it records: the columns every read of stored
 * decisions names (the keyless log's reads give the same names), and their mapping.
 */
final class RequestLogRow {

    /** The columns of a stored decision, in the order every read names them. */
    static final String COLUMNS = """
            dedupe_id, entity_id, channel_code, direction_code, amount, currency, occurred_at,
                   decision, reason, errors, usage, limits, bucket_ts, decided_at,
                   type, reverses, released_amount, released_count, remaining, shadow_decision, shadow_reason,
                   account_id, scopes, original, asked_hold_expires_at, final, hold_expires_at, captured,
                   over_captured, counted_amount, fx_currency, fx_rate, fx_valid_from
            """;

    private RequestLogRow() {}

    /** The decision a row of {@link #COLUMNS} records, as stored (not marked as a replay). */
    static Decision decision(ResultSet rs, int rowNum) throws SQLException {
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
                rs.getObject("reverses", UUID.class),
                rs.getObject("account_id", UUID.class),
                rs.getObject("original", UUID.class),
                instantFromTimestamptz(rs, "asked_hold_expires_at"),
                rs.getObject("final", Boolean.class));
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
                DecisionJson.scopes(rs.getString("scopes")),
                instantFromTimestamptz(rs, "hold_expires_at"),
                rs.getObject("captured", Long.class),
                rs.getObject("over_captured", Long.class),
                conversion(rs),
                false,
                null);
    }

    /** The conversion of the columns counted_amount, fx_currency, fx_rate, fx_valid_from; null when none. */
    static Conversion conversion(ResultSet rs) throws SQLException {
        BigDecimal rate = rs.getBigDecimal("fx_rate");
        return rate == null
                ? null
                : new Conversion(
                        rs.getLong("counted_amount"),
                        rs.getString("fx_currency"),
                        rate,
                        instantFromTimestamptz(rs, "fx_valid_from"));
    }

    /** The type column: null where the event's type failed validation. */
    static EventType eventType(String type) {
        return type == null ? null : EventType.valueOf(type);
    }
}
