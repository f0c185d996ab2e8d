package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.hold.HoldLedger;
import io.risklimits.decision.hold.HoldStatus;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.TestInfrastructure;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.JdbcUpdateAffectedIncorrectNumberOfRowsException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The ledger write of a batch against a real PostgreSQL: a ledger the batch begins is inserted, one it read
 * is updated, and one it read that is no longer there fails the write rather than being dropped.
 */
@ExtendWith(NoRowsLeftBehind.class)
class HoldLedgersIT {

    private static final Instant DECIDED_AT = Instant.now().truncatedTo(ChronoUnit.HOURS);

    private final DataSource dataSource = TestInfrastructure.get().dataSource();
    private final JdbcTemplate db = new JdbcTemplate(dataSource);
    private final HoldLedgers ledgers = new HoldLedgers();
    private final List<UUID> entities = new ArrayList<>();

    @AfterEach
    void deleteTheLedgersWritten() {
        entities.forEach(entity -> db.update("DELETE FROM risk_authorization_ledger WHERE entity_id = ?", entity));
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
}
