package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Reads one decision back from risk_request_log, by business key and dedupe_id, as the store reads
 * stored decisions (the same columns, the same mapping): for the tests' checks and the benchmark's
 * baseline, which looks each event up alone.
 */
public final class FiledDecisions {

    private static final String SELECT_DECISION = "SELECT " + RequestLogRow.COLUMNS + """
            FROM risk_request_log
            WHERE entity_id = :entityId
              AND channel_code = :channel
              AND direction_code = :direction
              AND dedupe_id = :dedupeId
            """;

    private final JdbcClient jdbc;

    public FiledDecisions(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public Optional<Decision> find(BusinessKey key, UUID dedupeId) {
        return jdbc.sql(SELECT_DECISION)
                .param("entityId", key.entityId())
                .param("channel", key.channel())
                .param("direction", key.direction().name())
                .param("dedupeId", dedupeId)
                .query(RequestLogRow::decision)
                .optional();
    }
}
