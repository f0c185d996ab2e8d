package io.risklimits.cli;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads risk_authorization_ledger, the ledger of each approved authorization that is a hold or that a
 * follow-up acted on, by its business key: one authorization's, or the key's open holds. Read-only.
 */
final class LedgerLookup {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final String LEDGER_ROWS = """
            SELECT dedupe_id, parts::text AS parts, captured, status, expires_at
            FROM risk_authorization_ledger
            WHERE entity_id = :entityId
              AND channel_code = :channel
              AND direction_code = :direction
            """;

    private static final String SELECT_ONE = LEDGER_ROWS + """
              AND dedupe_id = :dedupeId
            """;

    // the key's range of the primary key, filtered as the partial indexes of open holds are
    private static final String SELECT_OPEN_HOLDS = LEDGER_ROWS + """
              AND status = 'OPEN'
              AND expires_at IS NOT NULL
            ORDER BY expires_at, dedupe_id
            """;

    /** One counted part: the authorization, an increment or an over-capture, in the UTC hour it was counted in. */
    record Part(String kind, Instant hour, long amount, long released) {}

    /**
     * One authorization's ledger.
     *
     * @param parts in the order counted; the first is the authorization
     * @param captured everything captures took of it, from what was held and beyond it
     * @param expiresAt when the hold expires; null for a final spend, which never does
     */
    record Ledger(UUID dedupeId, List<Part> parts, long captured, String status, Instant expiresAt) {

        /** The authorization's amount and its approved increments (over-captures were never authorized). */
        long authorized() {
            return parts.stream()
                    .filter(part -> !part.kind().equals("OVER_CAPTURE"))
                    .mapToLong(Part::amount)
                    .sum();
        }

        /** Everything ever counted of it: every part's amount. */
        long everCounted() {
            return parts.stream().mapToLong(Part::amount).sum();
        }

        /** What is still counted: every part's amount less what was released from it. */
        long counted() {
            return parts.stream()
                    .mapToLong(part -> part.amount() - part.released())
                    .sum();
        }

        /** What is still held: counted and not captured while the hold is open; 0 once closed, and for a final spend. */
        long held() {
            return "OPEN".equals(status) && expiresAt != null ? Math.max(0, counted() - captured) : 0;
        }
    }

    private final JdbcClient jdbc;

    LedgerLookup(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The ledger of the authorization filed under this key with this dedupe_id; empty when it has none. */
    Optional<Ledger> of(LoggedDecision authorization) {
        return jdbc.sql(SELECT_ONE)
                .param("entityId", authorization.entityId())
                .param("channel", authorization.channel())
                .param("direction", authorization.direction())
                .param("dedupeId", authorization.dedupeId())
                .query(LedgerLookup::ledger)
                .optional();
    }

    /** The key's open holds (status OPEN, with an expiry), the soonest to expire first. */
    List<Ledger> openHolds(UUID entityId, String channel, String direction) {
        return jdbc.sql(SELECT_OPEN_HOLDS)
                .param("entityId", entityId)
                .param("channel", channel)
                .param("direction", direction)
                .query(LedgerLookup::ledger)
                .list();
    }

    private static Ledger ledger(ResultSet rs, int rowNum) throws SQLException {
        List<Part> parts = new ArrayList<>();
        for (JsonNode part : JSON.readTree(rs.getString("parts"))) {
            parts.add(new Part(
                    part.path("kind").asString(),
                    Instant.parse(part.path("hour").asString()),
                    part.path("amount").asLong(),
                    part.path("released").asLong()));
        }
        OffsetDateTime expiresAt = rs.getObject("expires_at", OffsetDateTime.class);
        return new Ledger(
                rs.getObject("dedupe_id", UUID.class),
                parts,
                rs.getLong("captured"),
                rs.getString("status"),
                expiresAt == null ? null : expiresAt.toInstant());
    }
}
