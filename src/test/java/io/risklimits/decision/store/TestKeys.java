package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Business keys (a new entity each) and accounts of a test's own, and the deletion of their rows after it:
 * the database serves the whole test run, and a row left behind is seen by the tests after it (a hold
 * sweep expires every due hold in the database).
 */
final class TestKeys {

    private final List<UUID> entities = new CopyOnWriteArrayList<>();
    private final List<UUID> accounts = new CopyOnWriteArrayList<>();

    /** A CARD OUT key of a new entity. */
    BusinessKey newKey() {
        return newKey("CARD");
    }

    /** An OUT key of a new entity on the channel. */
    BusinessKey newKey(String channel) {
        return new BusinessKey(newEntity(), channel, Direction.OUT);
    }

    /** A new entity, for keys of several channels or directions. */
    UUID newEntity() {
        UUID entity = UUID.randomUUID();
        entities.add(entity);
        return entity;
    }

    /** A new account, whose account-channel and account buckets {@link #deleteTheirRows} deletes. */
    UUID newAccount() {
        UUID account = UUID.randomUUID();
        accounts.add(account);
        return account;
    }

    /**
     * Deletes the audit rows, the hour buckets at every scope and the authorization ledgers of every key
     * handed out, and the buckets of every account.
     */
    void deleteTheirRows(JdbcTemplate db) {
        for (UUID entity : entities) {
            db.update("DELETE FROM risk_hourly_agg WHERE entity_id = ?", entity);
            db.update("DELETE FROM risk_scope_hourly_agg WHERE owner_id = ?", entity);
            db.update("DELETE FROM risk_authorization_ledger WHERE entity_id = ?", entity);
            db.update("DELETE FROM risk_request_log WHERE entity_id = ?", entity);
            db.update("DELETE FROM risk_keyless_request_log WHERE entity_id = ?", entity);
        }
        for (UUID account : accounts) {
            db.update("DELETE FROM risk_scope_hourly_agg WHERE owner_id = ?", account);
        }
    }
}
