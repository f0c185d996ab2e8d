package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.support.OwnRows;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Business keys (a new entity each) and accounts of a test's own, and the deletion of their rows after it:
 * the database serves the whole test run, and a row left behind is seen by the tests after it (a hold
 * sweep expires every due hold in the database).
 */
final class TestKeys {

    private final OwnRows rows = new OwnRows();

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
        return rows.newEntity();
    }

    /** A new account, whose account-channel and account buckets {@link #deleteTheirRows} deletes. */
    UUID newAccount() {
        return rows.newAccount();
    }

    /**
     * Deletes the audit rows, the hour buckets at every scope and the authorization ledgers of every key
     * handed out, and the buckets of every account.
     */
    void deleteTheirRows(JdbcTemplate db) {
        rows.deleteTheirRows(db);
    }
}
