package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;

/** Business keys of a test's own (CARD, OUT, a new entity each), and the deletion of their rows after it. */
final class TestKeys {

    private final List<UUID> entities = new ArrayList<>();

    BusinessKey newKey() {
        BusinessKey key = new BusinessKey(UUID.randomUUID(), "CARD", Direction.OUT);
        entities.add(key.entityId());
        return key;
    }

    /** Deletes the hour buckets and the audit rows of every key handed out. */
    void deleteTheirRows(JdbcTemplate db) {
        for (UUID entity : entities) {
            db.update("DELETE FROM risk_hourly_agg WHERE entity_id = ?", entity);
            db.update("DELETE FROM risk_request_log WHERE entity_id = ?", entity);
        }
    }
}
