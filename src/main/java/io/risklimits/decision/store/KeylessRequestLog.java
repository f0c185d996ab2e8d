package io.risklimits.decision.store;

import static io.risklimits.decision.store.SqlTime.timestamptz;

import io.risklimits.decision.Decision;
import io.risklimits.decision.DecisionJson;
import io.risklimits.decision.EventFields;
import io.risklimits.decision.FieldError;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** risk_keyless_request_log: the INVALID events without a readable business key, once per dedupe_id. */
@Repository
class KeylessRequestLog {

    private static final String INSERT_IF_NEW = """
            INSERT INTO risk_keyless_request_log (dedupe_id, entity_id, channel_code, direction_code, amount,
                                                  currency, occurred_at, errors, bucket_ts, decided_at,
                                                  type, reverses, account_id, original,
                                                  asked_hold_expires_at, final)
            VALUES (:dedupeId, :entityId, :channel, :direction, :amount,
                    :currency, :occurredAt, CAST(:errors AS jsonb),
                    date_trunc('hour', clock_timestamp() AT TIME ZONE 'UTC'), clock_timestamp(),
                    :type, :reverses, :accountId, :original, :askedHoldExpiresAt, :final)
            ON CONFLICT (dedupe_id) DO NOTHING
            """;

    // the columns of a stored decision (RequestLogRow), those a keyless row does not have null
    private static final String SELECT = """
            SELECT dedupe_id, entity_id, channel_code, direction_code, amount, currency, occurred_at,
                   'INVALID' AS decision, 'INVALID_REQUEST' AS reason, errors,
                   NULL AS usage, NULL AS limits, NULL AS bucket_ts, decided_at,
                   type, reverses, CAST(NULL AS bigint) AS released_amount,
                   CAST(NULL AS smallint) AS released_count, CAST(NULL AS bigint) AS remaining,
                   CAST(NULL AS text) AS shadow_decision, CAST(NULL AS text) AS shadow_reason,
                   account_id, CAST(NULL AS json) AS scopes, original, asked_hold_expires_at, final,
                   CAST(NULL AS timestamptz) AS hold_expires_at, CAST(NULL AS bigint) AS captured,
                   CAST(NULL AS bigint) AS over_captured, CAST(NULL AS bigint) AS counted_amount,
                   CAST(NULL AS text) AS fx_currency, CAST(NULL AS numeric) AS fx_rate,
                   CAST(NULL AS timestamptz) AS fx_valid_from
            FROM risk_keyless_request_log
            WHERE dedupe_id = :dedupeId
            """;

    private final JdbcClient jdbc;

    KeylessRequestLog(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Files an INVALID event that has no readable business key, unless its dedupe_id is filed
     * already; either way returns the one decision stored for that dedupe_id, marked as a replay
     * when it was stored before.
     */
    Decision insertIfNew(UUID dedupeId, EventFields fields, List<FieldError> errors) {
        int inserted = jdbc.sql(INSERT_IF_NEW)
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
                .param("accountId", fields.accountId())
                .param("original", fields.original())
                .param("askedHoldExpiresAt", timestamptz(fields.holdExpiresAt()))
                .param("final", fields.isFinal())
                .update();
        Decision stored = jdbc.sql(SELECT)
                .param("dedupeId", dedupeId)
                .query(RequestLogRow::decision)
                .single();
        return inserted == 1 ? stored : stored.asReplay();
    }
}
