package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.hold.HoldLedger;
import io.risklimits.decision.hold.HoldStatus;
import io.risklimits.support.DatabaseOfItsOwn;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.JdbcUpdateAffectedIncorrectNumberOfRowsException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The ledger write of a batch against a real PostgreSQL: a ledger the batch begins is inserted, one it read
 * is updated, and one it read that is no longer there fails the write rather than being dropped. On a
 * database of its own: the due-read tests depend on which holds are due anywhere in it.
 */
class HoldLedgersIT {

    private static final Instant DECIDED_AT = Instant.now().truncatedTo(ChronoUnit.HOURS);

    private static final DatabaseOfItsOwn DATABASE = DatabaseOfItsOwn.migrated("risk_it_hold_ledgers");

    private final DataSource dataSource = DATABASE.dataSource();
    private final JdbcTemplate db = new JdbcTemplate(dataSource);
    private final HoldLedgers ledgers = new HoldLedgers();
    private final List<UUID> entities = new ArrayList<>();
    // the channel of the holds the due-read tests insert in bulk
    private final String dueChannel =
            "DUE_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();

    @AfterAll
    static void dropTheDatabase() {
        DATABASE.close();
    }

    @AfterEach
    void deleteTheLedgersWritten() {
        entities.forEach(entity -> db.update("DELETE FROM risk_authorization_ledger WHERE entity_id = ?", entity));
        db.update("DELETE FROM risk_authorization_ledger WHERE channel_code = ?", dueChannel);
    }

    @Test
    void aLedgerTheBatchBeginsIsInsertedAndOneItReadIsUpdated() {
        RequestId id = authorization();
        HoldLedger hold = HoldLedger.hold(1_000, DECIDED_AT, DECIDED_AT.plus(Duration.ofDays(7)));
        save(new HoldLedgers.Saved(id, null, hold, false, false));

        HoldLedger captured =
                new HoldLedger(hold.parts(), 1_000, HoldStatus.CAPTURED, hold.expiresAt(), hold.countHour());
        save(new HoldLedgers.Saved(id, null, captured, false, true));

        assertThat(db.queryForObject(
                        "SELECT status FROM risk_authorization_ledger WHERE dedupe_id = ?",
                        String.class,
                        id.dedupeId()))
                .isEqualTo("CAPTURED");
    }

    @Test
    void aLedgerReadUnderTheLocksThatIsGoneFailsTheWriteRatherThanBeingDropped() {
        HoldLedger hold = HoldLedger.hold(1_000, DECIDED_AT, DECIDED_AT.plus(Duration.ofDays(7)));
        HoldLedgers.Saved gone = new HoldLedgers.Saved(authorization(), null, hold, false, true);

        assertThatThrownBy(() -> save(gone))
                .isInstanceOf(JdbcUpdateAffectedIncorrectNumberOfRowsException.class)
                .hasMessageContaining("updating the ledgers read under the locks");
    }

    private void save(HoldLedgers.Saved saved) {
        RoundTrip trip = new RoundTrip(db);
        ledgers.saveAll(List.of(saved), trip);
        trip.run();
    }

    private RequestId authorization() {
        UUID entity = UUID.randomUUID();
        entities.add(entity);
        return new RequestId(new BusinessKey(entity, "CARD", Direction.OUT), UUID.randomUUID());
    }

    /**
     * A batch's read of its due holds probes the open holds of each of its scope keys, planned with the
     * statistics of a ledger table that has rows (as a deployment's has): with twenty thousand holds due at
     * other keys (a sweep that fell behind) it reads none of them. Planned as a join with every due hold,
     * which the planner prefers for a batch of hundreds of keys, it would read them all in every batch.
     */
    @Test
    void theDueReadOfABatchReadsNoHoldDueAtAnotherKey() {
        insertOpenHolds(700, 100, 200);
        db.execute("ANALYZE risk_authorization_ledger");
        // a batch of the 500 entities whose holds are all due in a week
        List<UUID> batch = db.queryForList(
                "SELECT DISTINCT entity_id FROM risk_authorization_ledger WHERE channel_code = ? AND expires_at > ?",
                UUID.class,
                dueChannel,
                Timestamp.from(DECIDED_AT));

        long ledgerRowsRead = ledgerRowsRead(explainDueRead(batch));

        assertThat(batch).hasSize(500);
        assertThat(ledgerRowsRead).isZero();
    }

    /**
     * With no hold due anywhere (a deployment without holds, or a sweep that is current) the read does not
     * probe its scope keys at all: one look at the expiry index says so. Without that look a batch of 500
     * keys would pay 500 probes for nothing.
     */
    @Test
    void theDueReadOfABatchProbesNothingWhenNoHoldIsDueAnywhere() {
        insertOpenHolds(500, 1, 0);
        List<UUID> batch = db.queryForList(
                "SELECT entity_id FROM risk_authorization_ledger WHERE channel_code = ?", UUID.class, dueChannel);

        JsonNode plan = explainDueRead(batch);

        assertThat(batch).hasSize(500);
        assertThat(ledgerScans(plan)).isZero();
    }

    // open holds of new entities on dueChannel, holdsEach of each: those of the first dueOwners due an
    // hour before the decision, the others in a week
    private void insertOpenHolds(int owners, int holdsEach, int dueOwners) {
        db.update(
                """
                INSERT INTO risk_authorization_ledger (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                                       parts, status, expires_at, count_hour)
                SELECT owner.entity_id, ?, 'OUT', gen_random_uuid(), ?::timestamp,
                       json_build_array(json_build_object('kind', 'AUTHORIZATION', 'hour', ?, 'amount', 100,
                                                          'released', 0)),
                       'OPEN', CASE WHEN owner.n <= ? THEN ?::timestamptz - interval '1 hour'
                                    ELSE ?::timestamptz + interval '7 days' END,
                       ?::timestamp
                FROM (SELECT gen_random_uuid() AS entity_id, n FROM generate_series(1, ?) AS n) AS owner,
                     generate_series(1, ?) AS hold
                """,
                dueChannel,
                utc(DECIDED_AT),
                DECIDED_AT.toString(),
                dueOwners,
                DECIDED_AT.toString(),
                DECIDED_AT.toString(),
                utc(DECIDED_AT),
                owners,
                holdsEach);
    }

    private JsonNode explainDueRead(List<UUID> entities) {
        MapSqlParameterSource parameters = new MapSqlParameterSource()
                .addValue("entityIds", entities.toArray(UUID[]::new))
                .addValue(
                        "entityDirections",
                        entities.stream().map(entity -> "OUT").toArray(String[]::new))
                .addValue("accountIds", new UUID[0])
                .addValue("accountDirections", new String[0]);
        String plan = new TransactionTemplate(new DataSourceTransactionManager(dataSource)).execute(status -> {
            db.queryForObject(
                    "SELECT set_config('risk.batch_decided_at', ?, true)", String.class, DECIDED_AT.toString());
            return new NamedParameterJdbcTemplate(db)
                    .queryForObject(
                            "EXPLAIN (ANALYZE, FORMAT JSON) " + HoldLedgers.SELECT_DUE, parameters, String.class);
        });
        return JsonMapper.builder().build().readTree(plan).get(0).get("Plan");
    }

    // the rows the scans of the ledger by scope key returned, over all their loops
    private static long ledgerRowsRead(JsonNode plan) {
        return scopeKeyScans(plan).stream()
                .mapToLong(scan -> scan.get("Actual Rows").asLong()
                        * scan.get("Actual Loops").asLong())
                .sum();
    }

    // how many times a scan of the ledger by scope key ran
    private static long ledgerScans(JsonNode plan) {
        return scopeKeyScans(plan).stream()
                .mapToLong(scan -> scan.get("Actual Loops").asLong())
                .sum();
    }

    // the plan's scans of the ledger but the look at the expiry index (an InitPlan, run once)
    private static List<JsonNode> scopeKeyScans(JsonNode node) {
        List<JsonNode> scans = new ArrayList<>();
        if ("InitPlan".equals(node.path("Parent Relationship").asString(""))) {
            return scans;
        }
        if ("risk_authorization_ledger".equals(node.path("Relation Name").asString(""))) {
            scans.add(node);
        }
        for (JsonNode child : node.path("Plans")) {
            scans.addAll(scopeKeyScans(child));
        }
        return scans;
    }

    private static String utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC).toLocalDateTime().toString();
    }
}
