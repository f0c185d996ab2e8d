package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.TestInfrastructure;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Statements sent in one round trip run in order, each with its own parameters and its own snapshot:
 * a read added after risk_begin_scoped_batch_decision runs under the locks it took.
 */
@ExtendWith(NoRowsLeftBehind.class)
class RoundTripIT {

    private static final String BEGIN = """
            SELECT decided_at
            FROM risk_begin_scoped_batch_decision(ARRAY[CAST(:entityId AS uuid)], ARRAY['CARD'], ARRAY['OUT'],
                                                  '{}', '{}', '{}', '{}')
            """;
    private static final String COUNT_NOTES = "SELECT count(*) FROM round_trip_note WHERE entity_id = :entityId";
    private static final String ADD_NOTE = "INSERT INTO round_trip_note (entity_id) VALUES (:entityId)";

    private static final DataSource dataSource = TestInfrastructure.get().dataSource();

    private final JdbcTemplate db = new JdbcTemplate(dataSource);
    private final TransactionTemplate transaction =
            new TransactionTemplate(new DataSourceTransactionManager(dataSource));
    private final UUID entity = UUID.randomUUID();

    @BeforeAll
    static void createNoteTable() {
        new JdbcTemplate(dataSource).execute("CREATE TABLE IF NOT EXISTS round_trip_note (entity_id uuid NOT NULL)");
    }

    @Test
    void statementsRunInOrderAndEachSeesWhatTheOnesBeforeItDid() {
        RoundTrip trip = new RoundTrip(db);
        Supplier<Long> before = trip.query(COUNT_NOTES, entity(), RoundTripIT::count);
        trip.execute(ADD_NOTE, entity());
        trip.execute(ADD_NOTE, entity());
        Supplier<Long> after = trip.query(COUNT_NOTES, entity(), RoundTripIT::count);

        trip.run();

        assertThat(List.of(before.get(), after.get())).containsExactly(0L, 2L);
    }

    @Test
    void uuidArraysArriveWholeAndInOrderWithTheirNulls() {
        UUID[] ids = {UUID.randomUUID(), null, UUID.fromString("00000000-0000-0000-0000-000000000000"), null};
        RoundTrip trip = new RoundTrip(db);
        Supplier<List<String>> read = trip.query(
                "SELECT CAST(id AS text) FROM unnest(CAST(:ids AS uuid[])) WITH ORDINALITY AS id (id, position)"
                        + " ORDER BY position",
                new MapSqlParameterSource("ids", ids),
                rs -> {
                    List<String> texts = new ArrayList<>();
                    while (rs.next()) {
                        texts.add(rs.getString(1));
                    }
                    return texts;
                });

        trip.run();

        assertThat(read.get()).containsExactly(ids[0].toString(), null, ids[2].toString(), null);
    }

    @Test
    void theSameParameterNameInTwoStatementsIsTwoParameters() {
        RoundTrip trip = new RoundTrip(db);
        Supplier<Long> one = trip.query("SELECT CAST(:value AS bigint)", value(1), RoundTripIT::count);
        Supplier<Long> two =
                trip.query("SELECT CAST(:value AS bigint) + CAST(:value AS bigint)", value(2), RoundTripIT::count);

        trip.run();

        assertThat(List.of(one.get(), two.get())).containsExactly(1L, 4L);
    }

    /**
     * The reason the decider can send its reads with its locks: the read's snapshot is taken after the
     * lock is granted, so it sees what the lock's previous holder committed.
     */
    @Test
    void aReadAfterTheLocksSeesWhatTheirPreviousHolderCommitted() throws Exception {
        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            BatchBegin.begin(holder, entity);
            try (PreparedStatement note = holder.prepareStatement(ADD_NOTE.replace(":entityId", "?"))) {
                note.setObject(1, entity);
                note.executeUpdate();
            }
            CompletableFuture<Long> seen = CompletableFuture.supplyAsync(() -> transaction.execute(status -> {
                RoundTrip trip = new RoundTrip(db);
                trip.execute(BEGIN, entity());
                Supplier<Long> count = trip.query(COUNT_NOTES, entity(), RoundTripIT::count);
                trip.run();
                return count.get();
            }));
            // the round trip waits for the key's lock until the holder commits
            TimeUnit.MILLISECONDS.sleep(300);
            assertThat(seen).isNotDone();
            holder.commit();

            assertThat(seen.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        }
    }

    @Test
    void theFirstStatementThatFailsEndsTheRoundTrip() {
        RoundTrip trip = new RoundTrip(db);
        trip.execute("SELECT 1 / (SELECT count(*) FROM round_trip_note WHERE entity_id = :entityId)", entity());
        trip.execute(ADD_NOTE, entity());

        assertThatThrownBy(() -> transaction.executeWithoutResult(status -> trip.run()))
                .isInstanceOf(DataAccessException.class)
                .hasMessageContaining("division by zero");
        assertThat(db.queryForObject("SELECT count(*) FROM round_trip_note WHERE entity_id = ?", Long.class, entity))
                .isZero();
    }

    @Test
    void anAnswerIsThereOnlyOnceTheRoundTripHasRun() {
        RoundTrip trip = new RoundTrip(db);
        Supplier<Long> one = trip.query("SELECT 1", new MapSqlParameterSource(), RoundTripIT::count);

        assertThatThrownBy(one::get).isInstanceOf(IllegalStateException.class);
        trip.run();
        assertThat(one.get()).isEqualTo(1);
        assertThatThrownBy(trip::run).isInstanceOf(IllegalStateException.class);
    }

    private MapSqlParameterSource entity() {
        return new MapSqlParameterSource("entityId", entity);
    }

    private static MapSqlParameterSource value(long value) {
        return new MapSqlParameterSource("value", value);
    }

    private static Long count(java.sql.ResultSet rs) throws java.sql.SQLException {
        rs.next();
        return rs.getLong(1);
    }
}
