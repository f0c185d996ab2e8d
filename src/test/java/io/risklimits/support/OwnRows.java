package io.risklimits.support;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The entities and accounts a test writes rows for, and the deletion of those rows after it: the database
 * serves the whole test run, and a row left behind is seen by the tests after it (a hold sweep expires
 * every due hold in the database). Delete only once nothing writes for them any more (the service that
 * decides their events is closed).
 */
public final class OwnRows {

    private final List<UUID> entities = new CopyOnWriteArrayList<>();
    private final List<UUID> accounts = new CopyOnWriteArrayList<>();

    /** A new entity, whose rows {@link #deleteTheirRows} deletes. */
    public UUID newEntity() {
        UUID entity = UUID.randomUUID();
        entities.add(entity);
        return entity;
    }

    /** A new account, whose account-channel and account buckets {@link #deleteTheirRows} deletes. */
    public UUID newAccount() {
        UUID account = UUID.randomUUID();
        accounts.add(account);
        return account;
    }

    /**
     * Deletes the audit rows (keyed and keyless), the hour buckets at every scope and the authorization
     * ledgers of every entity handed out, and the buckets of every account.
     */
    public void deleteTheirRows(JdbcTemplate db) {
        UUID[] owners = Stream.concat(entities.stream(), accounts.stream()).toArray(UUID[]::new);
        UUID[] theEntities = entities.toArray(UUID[]::new);
        db.update("DELETE FROM risk_hourly_chunk WHERE entity_id = ANY (?)", (Object) theEntities);
        db.update("DELETE FROM risk_scope_hourly_chunk WHERE owner_id = ANY (?)", (Object) owners);
        db.update("DELETE FROM risk_authorization_ledger WHERE entity_id = ANY (?)", (Object) theEntities);
        db.update("DELETE FROM risk_request_log WHERE entity_id = ANY (?)", (Object) theEntities);
        db.update("DELETE FROM risk_keyless_request_log WHERE entity_id = ANY (?)", (Object) theEntities);
    }
}
