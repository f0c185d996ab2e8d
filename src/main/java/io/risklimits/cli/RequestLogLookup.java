package io.risklimits.cli;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Finds the decisions filed for a dedupe_id: risk_request_log (one row per business key, since a
 * dedupe_id is unique only per key) and risk_keyless_request_log (INVALID events without a key).
 */
final class RequestLogLookup {

    // a request log row as the CLI shows it (what logged() reads)
    private static final String LOGGED_ROWS = """
            SELECT dedupe_id, entity_id, channel_code, direction_code, decision, reason, amount, currency,
                   occurred_at, decided_at, bucket_ts, usage::text AS usage, limits::text AS limits,
                   errors::text AS errors, 'risk_request_log' AS source,
                   type, reverses, released_amount, released_count, remaining, account_id,
                   CASE WHEN shadow_decision IS NOT NULL
                        THEN shadow_decision || coalesce(' (' || shadow_reason || ')', '') END AS shadow,
                   original, final, hold_expires_at, captured, over_captured
            FROM risk_request_log
            """;

    // Without the full business key this cannot use the primary key and reads the whole log; an index on
    // dedupe_id alone would cost every decision an extra index write, for an occasional operator query.
    private static final String SELECT_LOGGED = LOGGED_ROWS + """
            WHERE dedupe_id = :dedupeId
              AND (CAST(:entityId AS uuid) IS NULL OR entity_id = CAST(:entityId AS uuid))
              AND (CAST(:channel AS text) IS NULL OR channel_code = CAST(:channel AS text))
              AND (CAST(:direction AS text) IS NULL OR direction_code = CAST(:direction AS text))
            ORDER BY decided_at, entity_id, channel_code, direction_code
            """;

    private static final String SELECT_KEYLESS = """
            SELECT dedupe_id, entity_id, channel_code, direction_code, 'INVALID' AS decision,
                   'INVALID_REQUEST' AS reason, amount, currency, occurred_at, decided_at, bucket_ts,
                   NULL AS usage, NULL AS limits, errors::text AS errors, 'risk_keyless_request_log' AS source,
                   type, reverses, CAST(NULL AS bigint) AS released_amount,
                   CAST(NULL AS smallint) AS released_count, CAST(NULL AS bigint) AS remaining,
                   CAST(NULL AS uuid) AS account_id, CAST(NULL AS text) AS shadow,
                   original, final, CAST(NULL AS timestamptz) AS hold_expires_at,
                   CAST(NULL AS bigint) AS captured, CAST(NULL AS bigint) AS over_captured
            FROM risk_keyless_request_log
            WHERE dedupe_id = :dedupeId
            """;

    // The follow-ups filed under an authorization's business key that name it (reversals in reverses or
    // original; captures, increments and the service's expiry in original), in the order decided: a range
    // of the primary key (the key's rows), filtered by the original they name. The decisions of one batch
    // share its decided_at; decided_order is each one's place in that batch (an expiry of a hold approved past
    // its expiry shares its authorization's place, and comes after it).
    private static final String SELECT_FOLLOW_UPS = LOGGED_ROWS + """
            WHERE entity_id = :entityId
              AND channel_code = :channel
              AND direction_code = :direction
              AND (reverses = :original OR original = :original)
              AND type IN ('REVERSAL', 'CAPTURE', 'INCREMENT', 'EXPIRY')
            ORDER BY decided_at, decided_order, type = 'EXPIRY'
            """;

    private final JdbcClient jdbc;

    RequestLogLookup(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Every decision for the dedupe_id within the given key parts (null: any); keyless ones only without. */
    List<LoggedDecision> find(UUID dedupeId, UUID entityId, String channel, String direction) {
        List<LoggedDecision> found = new ArrayList<>(jdbc.sql(SELECT_LOGGED)
                .param("dedupeId", dedupeId)
                .param("entityId", entityId)
                .param("channel", channel)
                .param("direction", direction)
                .query(RequestLogLookup::logged)
                .list());
        if (entityId == null && channel == null && direction == null) {
            found.addAll(jdbc.sql(SELECT_KEYLESS)
                    .param("dedupeId", dedupeId)
                    .query(RequestLogLookup::logged)
                    .list());
        }
        return found;
    }

    /** The follow-ups and expiry that name this authorization, under its business key, in the order decided. */
    List<LoggedDecision> followUpsOf(LoggedDecision authorization) {
        return jdbc.sql(SELECT_FOLLOW_UPS)
                .param("entityId", authorization.entityId())
                .param("channel", authorization.channel())
                .param("direction", authorization.direction())
                .param("original", authorization.dedupeId())
                .query(RequestLogLookup::logged)
                .list();
    }

    private static LoggedDecision logged(ResultSet rs, int rowNum) throws SQLException {
        OffsetDateTime occurredAt = rs.getObject("occurred_at", OffsetDateTime.class);
        OffsetDateTime holdExpiresAt = rs.getObject("hold_expires_at", OffsetDateTime.class);
        return new LoggedDecision(
                rs.getObject("dedupe_id", UUID.class),
                rs.getObject("entity_id", UUID.class),
                rs.getString("channel_code"),
                rs.getString("direction_code"),
                rs.getString("decision"),
                rs.getString("reason"),
                rs.getObject("amount", Long.class),
                rs.getString("currency"),
                occurredAt == null ? null : occurredAt.toInstant(),
                rs.getObject("decided_at", OffsetDateTime.class).toInstant(),
                rs.getObject("bucket_ts", LocalDateTime.class),
                rs.getString("usage"),
                rs.getString("limits"),
                rs.getString("errors"),
                rs.getString("source"),
                rs.getString("type"),
                rs.getObject("reverses", UUID.class),
                rs.getObject("released_amount", Long.class),
                rs.getObject("released_count", Integer.class),
                rs.getObject("remaining", Long.class),
                rs.getObject("account_id", UUID.class),
                rs.getString("shadow"),
                rs.getObject("original", UUID.class),
                rs.getObject("final", Boolean.class),
                holdExpiresAt == null ? null : holdExpiresAt.toInstant(),
                rs.getObject("captured", Long.class),
                rs.getObject("over_captured", Long.class));
    }
}
