package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.EventFields;
import io.risklimits.decision.EventType;
import io.risklimits.decision.FieldError;
import io.risklimits.decision.Limits;
import io.risklimits.decision.ReadResult;
import io.risklimits.decision.Reason;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Verdict;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.TestInfrastructure;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * INVALID events with a readable business key are decided in their batch, in their place in its order:
 * an event after one finds its dedupe_id decided, a reversal after one finds an original that is not
 * approved, and a batch of one (how a record is decided alone) gives the same answers.
 */
@ExtendWith(NoRowsLeftBehind.class)
class InvalidEventsInABatchIT {

    private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");

    private final DataSource dataSource = TestInfrastructure.get().dataSource();
    private final JdbcTemplate db = new JdbcTemplate(dataSource);
    private final FiledDecisions filedDecisions = new FiledDecisions(JdbcClient.create(dataSource));
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final BatchDecisionStore store = TestStores.batchDecisionStore(dataSource, Clock.systemUTC(), registry);

    @Test
    void anInvalidEventIsFiledInItsPlaceSoTheEventsAfterItFindItDecided() {
        BusinessKey key = newKey();
        UUID x = UUID.randomUUID();
        TransactionEvent reversal = reversal(key, x);

        List<Decision> answers = store.decideInOrder(
                List.of(invalidAmount(key, x), new ReadResult.Valid(reversal), valid(key, x)), any -> Limits.NONE);

        assertTheAnswersOfAnInvalidEventAReversalOfItAndAValidReuseOfIt(answers);
        assertThat(storedRows(key)).isEqualTo(Map.of(x, "INVALID 0", reversal.dedupeId(), "REJECTED 1"));
        assertThat(countedAmount(key)).isZero();
    }

    @Test
    void theSameEventsDecidedOneByOneGetTheSameAnswers() {
        BusinessKey key = newKey();
        UUID x = UUID.randomUUID();
        TransactionEvent reversal = reversal(key, x);
        List<ReadResult> events = List.of(invalidAmount(key, x), new ReadResult.Valid(reversal), valid(key, x));

        List<Decision> answers = new ArrayList<>();
        events.forEach(event -> answers.add(
                store.decideInOrder(List.of(event), any -> Limits.NONE).get(0)));

        assertTheAnswersOfAnInvalidEventAReversalOfItAndAValidReuseOfIt(answers);
        assertThat(storedRows(key)).isEqualTo(Map.of(x, "INVALID 0", reversal.dedupeId(), "REJECTED 0"));
        assertThat(countedAmount(key)).isZero();
    }

    @Test
    void aBatchDecidedAgainAnswersItsInvalidEventsWithTheStoredDecisions() {
        BusinessKey key = newKey();
        UUID x = UUID.randomUUID();
        List<ReadResult> events = List.of(invalidAmount(key, x), new ReadResult.Valid(reversal(key, x)));
        List<Decision> first = store.decideInOrder(events, any -> Limits.NONE);

        List<Decision> again = store.decideInOrder(events, any -> Limits.NONE);

        assertThat(again).hasSize(2);
        assertSameAnswer(again.get(0), first.get(0).asReplay());
        assertSameAnswer(again.get(1), first.get(1).asReplay());
    }

    @Test
    void anInvalidEventFindsADecisionMadeBeforeForItsDedupeIdAndFilesNothing() {
        BusinessKey key = newKey();
        UUID x = UUID.randomUUID();
        Decision approved =
                store.decideInOrder(List.of(valid(key, x)), any -> Limits.NONE).get(0);

        Decision answer = store.decideInOrder(List.of(invalidAmount(key, x)), any -> Limits.NONE)
                .get(0);

        assertThat(answer).isEqualTo(approved.asReplay());
        assertThat(storedRows(key)).isEqualTo(Map.of(x, "APPROVED 0"));
    }

    private final TestKeys ownKeys = new TestKeys();

    @AfterEach
    void deleteTheRowsOfTheTestsKeys() {
        ownKeys.deleteTheirRows(db);
    }

    /** The earliest occurred_at the reader accepts is stored as that instant by every insert. */
    @Test
    void theEarliestTimestampIsStoredFaithfullyByEveryInsert() {
        BusinessKey key = newKey();
        TransactionEvent valid = new TransactionEvent(UUID.randomUUID(), key, 10, "USD", EARLIEST);
        ReadResult.Invalid invalid = new ReadResult.Invalid(
                UUID.randomUUID(),
                new EventFields(key.entityId(), key.channel(), key.direction(), null, "USD", EARLIEST),
                List.of(new FieldError("amount", "is required")));
        UUID keyless = UUID.randomUUID();

        store.decideInOrder(List.of(new ReadResult.Valid(valid), invalid), any -> Limits.NONE);
        new InvalidDecisionStore(
                        new DataSourceTransactionManager(dataSource),
                        new KeylessRequestLog(JdbcClient.create(dataSource)))
                .recordKeyless(
                        keyless,
                        new EventFields(null, null, null, 10L, "USD", EARLIEST),
                        List.of(new FieldError("entity_id", "is required")));

        String earliest = "SELECT occurred_at = CAST('0001-01-01T00:00:00Z' AS timestamptz) FROM ";
        assertThat(db.queryForList(
                        earliest + "risk_request_log WHERE entity_id = ? AND channel_code = ?",
                        Boolean.class,
                        key.entityId(),
                        key.channel()))
                .containsExactly(true, true);
        assertThat(db.queryForObject(earliest + "risk_keyless_request_log WHERE dedupe_id = ?", Boolean.class, keyless))
                .isTrue();
    }

    private static void assertTheAnswersOfAnInvalidEventAReversalOfItAndAValidReuseOfIt(List<Decision> answers) {
        Decision invalid = answers.get(0);
        assertThat(invalid.verdict()).isEqualTo(Verdict.INVALID);
        assertThat(invalid.replayed()).isFalse();
        assertThat(invalid.errors()).containsExactly(new FieldError("amount", "must be a JSON integer, not string"));
        Decision reversal = answers.get(1);
        assertThat(reversal.verdict()).isEqualTo(Verdict.REJECTED);
        assertThat(reversal.reason()).isEqualTo(Reason.ORIGINAL_NOT_APPROVED);
        assertThat(answers.get(2))
                .satisfies(conflict -> assertSameAnswer(conflict, invalid.asConflictingReplay(List.of("amount"))));
    }

    /**
     * The same answer: an INVALID decision read back from its row has the hour it was filed under as
     * bucketTs, which no INVALID decision publishes.
     */
    private static void assertSameAnswer(Decision actual, Decision expected) {
        assertThat(actual).usingRecursiveComparison().ignoringFields("bucketTs").isEqualTo(expected);
    }

    // ---------------------------------------------------------------- events and rows

    private BusinessKey newKey() {
        return ownKeys.newKey();
    }

    private static ReadResult invalidAmount(BusinessKey key, UUID dedupeId) {
        return new ReadResult.Invalid(
                dedupeId,
                new EventFields(key.entityId(), key.channel(), key.direction(), null, "USD", now()),
                List.of(new FieldError("amount", "must be a JSON integer, not string")));
    }

    private static ReadResult valid(BusinessKey key, UUID dedupeId) {
        return new ReadResult.Valid(new TransactionEvent(dedupeId, key, 100, "USD", now()));
    }

    private static TransactionEvent reversal(BusinessKey key, UUID original) {
        return new TransactionEvent(UUID.randomUUID(), key, 100, "USD", now(), EventType.REVERSAL, original);
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }

    /** Each row of the key: its decision and its place in the batch it was decided in. */
    private Map<UUID, String> storedRows(BusinessKey key) {
        return Map.copyOf(db.query(
                "SELECT dedupe_id, decision, decided_order FROM risk_request_log WHERE entity_id = ? AND channel_code = ?",
                rs -> {
                    Map<UUID, String> rows = new HashMap<>();
                    while (rs.next()) {
                        rows.put(
                                rs.getObject("dedupe_id", UUID.class),
                                rs.getString("decision") + " " + rs.getInt("decided_order"));
                    }
                    return rows;
                },
                key.entityId(),
                key.channel()));
    }

    private long countedAmount(BusinessKey key) {
        return db.queryForObject(
                "SELECT coalesce(sum(sum_amount), 0) FROM risk_hourly_agg WHERE entity_id = ? AND channel_code = ?",
                Long.class,
                key.entityId(),
                key.channel());
    }
}
