package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * risk_authorization_ledger as the hold sweep reads it: the open holds due, the expiries filed and not yet
 * sent, and the figures its metrics report. Each is a range read of a partial index of the open holds or
 * of the unsent expiries, outside any batch's locks; what it finds is decided again under them.
 */
@Repository
class SweepQueries {

    // The business keys of the open holds due now, the earliest first: what the sweep expires next.
    private static final String SELECT_KEYS_WITH_DUE_HOLDS = """
            SELECT DISTINCT entity_id, channel_code, direction_code
            FROM (SELECT entity_id, channel_code, direction_code
                  FROM risk_authorization_ledger
                  WHERE status = 'OPEN' AND expires_at IS NOT NULL AND expires_at <= clock_timestamp()
                  ORDER BY expires_at
                  LIMIT :limit) AS due
            """;

    // The authorizations whose expiry was filed but not yet sent, the earliest first.
    private static final String SELECT_UNPUBLISHED_EXPIRIES = """
            SELECT entity_id, channel_code, direction_code, dedupe_id
            FROM risk_authorization_ledger
            WHERE NOT expiry_published
            ORDER BY expires_at
            LIMIT :limit
            """;

    private static final String MARK_PUBLISHED = """
            UPDATE risk_authorization_ledger
            SET expiry_published = true
            WHERE (entity_id, channel_code, direction_code, dedupe_id) IN (
                SELECT * FROM unnest(CAST(:entityIds AS uuid[]), CAST(:channels AS text[]),
                                     CAST(:directions AS text[]), CAST(:dedupeIds AS uuid[])))
              AND NOT expiry_published
            """;

    // the oldest open hold not yet expired, how long ago it was due (0 when none is due)
    private static final String SWEEP_LAG = """
            SELECT coalesce(extract(epoch FROM clock_timestamp() - min(expires_at)), 0)
            FROM risk_authorization_ledger
            WHERE status = 'OPEN' AND expires_at IS NOT NULL AND expires_at <= clock_timestamp()
            """;

    // the open holds, counted up to :upTo: an index-only scan of at most that many entries of the expiry
    // index, where a count of all of them would read the whole index every sweep, as it grows with the holds
    private static final String OPEN_HOLDS = """
            SELECT count(*)
            FROM (SELECT FROM risk_authorization_ledger
                  WHERE status = 'OPEN' AND expires_at IS NOT NULL
                  LIMIT :upTo) AS open_hold
            """;

    private final NamedParameterJdbcTemplate named;

    SweepQueries(JdbcOperations jdbc) {
        this.named = new NamedParameterJdbcTemplate(jdbc);
    }

    /** The business keys of the open holds due now, of the earliest limit of them. */
    List<BusinessKey> keysWithDueHolds(int limit) {
        return named.query(
                SELECT_KEYS_WITH_DUE_HOLDS,
                new MapSqlParameterSource("limit", limit),
                (rs, row) -> new BusinessKey(
                        rs.getObject("entity_id", UUID.class),
                        rs.getString("channel_code"),
                        Direction.valueOf(rs.getString("direction_code"))));
    }

    /** The authorizations whose expiry was filed and not yet sent, the earliest limit of them. */
    List<RequestId> unpublishedExpiries(int limit) {
        return named.query(
                SELECT_UNPUBLISHED_EXPIRIES,
                new MapSqlParameterSource("limit", limit),
                (rs, row) -> HoldLedgers.requestId(rs));
    }

    /** Records that these authorizations' expiries were sent. */
    void markPublished(List<RequestId> authorizations) {
        if (authorizations.isEmpty()) {
            return;
        }
        named.update(
                MARK_PUBLISHED,
                ColumnArrays.keyed(authorizations, RequestId::businessKey)
                        .add("dedupeIds", RequestId::dedupeId, UUID[]::new)
                        .parameters());
    }

    /** How long ago the oldest open hold not yet expired was due, in seconds; 0 when none is. */
    double sweepLagSeconds() {
        Double lag = named.getJdbcOperations().queryForObject(SWEEP_LAG, Double.class);
        return lag == null ? 0 : lag;
    }

    /** The open holds, counted up to upTo: upTo means that many or more. */
    long openHolds(long upTo) {
        Long open = named.queryForObject(OPEN_HOLDS, new MapSqlParameterSource("upTo", upTo), Long.class);
        return open == null ? 0 : open;
    }
}
