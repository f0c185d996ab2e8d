package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.Direction;
import io.risklimits.decision.Limit;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Outcome;
import io.risklimits.decision.Reason;
import io.risklimits.decision.Tally;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.Window;
import io.risklimits.limits.LimitRow;
import io.risklimits.limits.LimitTable;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.TestInfrastructure;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Shadow rows of risk_limit through the batched store against a real PostgreSQL: a decision carries
 * what the shadow set (the limits `limits promote` would leave: for each window a shadow row replaces the
 * enforced row of its specificity, and a more specific enforced row still wins) would have decided from the same usage, is decided, counted and reported by the enforced limits alone, and says
 * the same when it is read back from the request log.
 * The limit table is built in memory (no risk_limit rows), with a channel of each test's own.
 */
@ExtendWith(NoRowsLeftBehind.class)
class ShadowLimitsIT {

    private static final Random CHANNELS = new Random();

    private final DataSource dataSource = TestInfrastructure.get().dataSource();
    private final JdbcTemplate db = new JdbcTemplate(dataSource);
    private final SummedUsage summed = new SummedUsage(dataSource);
    private final FiledDecisions filedDecisions = new FiledDecisions(JdbcClient.create(dataSource));
    private final BatchDecisionStore store = TestStores.batchDecisionStore(dataSource);
    private final String channel = newChannel();
    private final TestKeys ownKeys = new TestKeys();

    @AfterEach
    void deleteTheRowsOfTheTestsKeys() {
        ownKeys.deleteTheirRows(db);
    }

    /** A shadow day limit tighter than the enforced ones: the shadow set rejects, the enforced approval counts. */
    @Test
    void aTighterShadowLimitRejectsBesideAnApprovalThatCounts() {
        LimitTable table = new LimitTable(List.of(
                enforced(channel, Window.LAST_24_HOURS, 10_000, 100), shadow(channel, null, Window.DAY, 500, 100)));
        BusinessKey key = newKey(channel);
        TransactionEvent first = authorization(key, 300);
        TransactionEvent second = authorization(key, 300);

        List<Decision> decisions = store.decideAll(List.of(first, second), table::limitsFor);

        assertThat(decisions.get(0).verdict()).isEqualTo(Verdict.APPROVED);
        assertThat(decisions.get(0).shadow()).isEqualTo(Outcome.approved());
        assertThat(decisions.get(1).verdict()).isEqualTo(Verdict.APPROVED);
        assertThat(decisions.get(1).reason()).isNull();
        assertThat(decisions.get(1).shadow()).isEqualTo(Outcome.rejectedFor(Reason.LIMIT_DAY_AMOUNT));
        assertThat(decisions.get(1).usage().of(Window.LAST_24_HOURS)).isEqualTo(new Tally(300, 1));
        assertThat(summed.usageUpTo(key, decisions.get(1).bucketTs()).of(Window.LAST_24_HOURS))
                .as("both approvals counted, the shadow rejection enforced nothing")
                .isEqualTo(new Tally(600, 2));
    }

    /** A shadow limit looser than the enforced one that rejects: rejected, nothing counted, the shadow approves. */
    @Test
    void aLooserShadowLimitApprovesBesideARejectionThatCountsNothing() {
        LimitTable table = new LimitTable(List.of(
                enforced(channel, Window.LAST_24_HOURS, 500, 100),
                shadow(channel, null, Window.LAST_24_HOURS, 1_000, 100)));
        BusinessKey key = newKey(channel);
        Decision approved = store.decideAll(List.of(authorization(key, 100)), table::limitsFor)
                .get(0);
        Tally counted = summed.usageUpTo(key, approved.bucketTs()).of(Window.LAST_24_HOURS);

        Decision rejected = store.decideAll(List.of(authorization(key, 600)), table::limitsFor)
                .get(0);

        assertThat(rejected.verdict()).isEqualTo(Verdict.REJECTED);
        assertThat(rejected.reason()).isEqualTo(Reason.LIMIT_24H_AMOUNT);
        assertThat(rejected.shadow()).isEqualTo(Outcome.approved());
        assertThat(counted).isEqualTo(new Tally(100, 1));
        assertThat(summed.usageUpTo(key, rejected.bucketTs()).of(Window.LAST_24_HOURS))
                .as("the shadow approval counted nothing")
                .isEqualTo(counted);
    }

    /**
     * With only channel-wide enforced rows, the entity's shadow txn cap is the most specific row and beats
     * the channel's, and the 7-day window, without a shadow row, keeps its enforced limit, which the shadow
     * set then fails on. Another entity of the channel gets the channel's shadow row.
     */
    @Test
    void theMostSpecificShadowRowWinsAndAWindowWithoutOneKeepsItsEnforcedLimit() {
        BusinessKey key = newKey(channel);
        BusinessKey otherEntity = newKey(channel);
        LimitTable table = new LimitTable(List.of(
                enforced(channel, Window.TXN, 250, 0),
                enforced(channel, Window.LAST_7_DAYS, 400, 100),
                shadow(channel, null, Window.TXN, 100, 0),
                shadow(channel, key.entityId(), Window.TXN, 5_000, 0)));

        List<Decision> decisions = store.decideAll(
                List.of(authorization(key, 200), authorization(key, 300), authorization(otherEntity, 200)),
                table::limitsFor);

        assertThat(decisions.get(0).verdict()).isEqualTo(Verdict.APPROVED);
        assertThat(decisions.get(0).shadow())
                .as("the entity's shadow txn cap, not the channel's 100")
                .isEqualTo(Outcome.approved());
        assertThat(decisions.get(1).verdict()).isEqualTo(Verdict.REJECTED);
        assertThat(decisions.get(1).reason()).isEqualTo(Reason.LIMIT_TXN_AMOUNT);
        assertThat(decisions.get(1).shadow())
                .as("past the entity's shadow txn cap, the enforced 7-day limit fails")
                .isEqualTo(Outcome.rejectedFor(Reason.LIMIT_7D_AMOUNT));
        assertThat(decisions.get(2).verdict()).isEqualTo(Verdict.APPROVED);
        assertThat(decisions.get(2).shadow())
                .as("another entity of the channel: the channel's shadow txn cap")
                .isEqualTo(Outcome.rejectedFor(Reason.LIMIT_TXN_AMOUNT));
    }

    /** A key that no shadow row matches: its decision, and the row filed for it, carry no shadow outcome. */
    @Test
    void aKeyNoShadowRowMatchesHasNoShadowOutcome() {
        String otherChannel = newChannel();
        BusinessKey shadowed = newKey(channel);
        BusinessKey unshadowed = newKey(otherChannel);
        BusinessKey otherDirection = new BusinessKey(ownKeys.newEntity(), channel, Direction.IN);
        LimitTable table = new LimitTable(List.of(
                new LimitRow(LimitRow.ANY, LimitRow.ANY, null, Window.LAST_24_HOURS, 10_000, 100),
                shadow(channel, null, Window.LAST_24_HOURS, 50, 100)));

        List<Decision> decisions = store.decideAll(
                List.of(
                        authorization(unshadowed, 100),
                        authorization(otherDirection, 100),
                        authorization(shadowed, 100)),
                table::limitsFor);

        assertThat(decisions).extracting(Decision::verdict).containsOnly(Verdict.APPROVED);
        assertThat(decisions.get(0).shadow()).isNull();
        assertThat(decisions.get(1).shadow()).as("the shadow row is for OUT").isNull();
        assertThat(decisions.get(2).shadow()).isEqualTo(Outcome.rejectedFor(Reason.LIMIT_24H_AMOUNT));
        assertThat(shadowColumns(decisions.get(0))).containsExactly(null, null);
        assertThat(shadowColumns(decisions.get(2))).containsExactly("REJECTED", "LIMIT_24H_AMOUNT");
    }

    /**
     * A replay answers with the decision read back from risk_request_log: it carries the same shadow
     * outcome (or none) as the decision made, and its limits and usage are still the enforced ones'.
     */
    @Test
    void aReplayCarriesTheSameShadowOutcome() {
        LimitTable table = new LimitTable(List.of(
                enforced(channel, Window.LAST_24_HOURS, 10_000, 100),
                enforced(channel, Window.TXN, 500, 0),
                shadow(channel, null, Window.DAY, 500, 100)));
        BusinessKey key = newKey(channel);
        BusinessKey unshadowed = newKey(newChannel());
        TransactionEvent approvedBoth = authorization(key, 300);
        TransactionEvent shadowRejected = authorization(key, 300);
        TransactionEvent rejectedBoth = authorization(key, 600);
        TransactionEvent withoutShadow = authorization(unshadowed, 300);
        List<TransactionEvent> events = List.of(approvedBoth, shadowRejected, rejectedBoth, withoutShadow);
        List<Decision> decided = store.decideAll(events, table::limitsFor);

        List<Decision> replays = store.decideAll(events, table::limitsFor);

        assertThat(decided)
                .extracting(Decision::shadow)
                .containsExactly(
                        Outcome.approved(),
                        Outcome.rejectedFor(Reason.LIMIT_DAY_AMOUNT),
                        Outcome.rejectedFor(Reason.LIMIT_TXN_AMOUNT),
                        null);
        for (int i = 0; i < events.size(); i++) {
            assertThat(replays.get(i).replayed()).isTrue();
            assertThat(replays.get(i).shadow()).isEqualTo(decided.get(i).shadow());
            assertThat(replays.get(i).verdict()).isEqualTo(decided.get(i).verdict());
            assertThat(replays.get(i).reason()).isEqualTo(decided.get(i).reason());
        }
        assertThat(summed.usageUpTo(key, decided.get(0).bucketTs()).of(Window.LAST_24_HOURS))
                .as("the replays counted nothing more")
                .isEqualTo(new Tally(600, 2));
    }

    /**
     * The limits reported with a decision, and stored with it, are the enforced ones: a window only the
     * shadow set has is neither among its limits nor in its stored usage.
     */
    @Test
    void theReportedLimitsAndUsageAreTheEnforcedOnes() {
        LimitTable table = new LimitTable(List.of(
                enforced(channel, Window.LAST_24_HOURS, 10_000, 100),
                shadow(channel, null, Window.LAST_24_HOURS, 20_000, 100),
                shadow(channel, null, Window.DAY, 500, 100)));
        BusinessKey key = newKey(channel);
        Limits enforced = new Limits(Map.of(Window.LAST_24_HOURS, new Limit(10_000L, 100L)));

        List<Decision> decisions =
                store.decideAll(List.of(authorization(key, 300), authorization(key, 300)), table::limitsFor);
        Decision filed = filedDecisions.find(key, decisions.get(1).dedupeId()).orElseThrow();

        assertThat(decisions.get(1).shadow()).isEqualTo(Outcome.rejectedFor(Reason.LIMIT_DAY_AMOUNT));
        assertThat(decisions.get(1).limits()).isEqualTo(enforced);
        assertThat(decisions.get(1).limits().shadow()).isNull();
        assertThat(filed.limits()).isEqualTo(enforced);
        assertThat(filed.shadow()).isEqualTo(decisions.get(1).shadow());
        assertThat(filed.usage().of(Window.LAST_24_HOURS)).isEqualTo(new Tally(300, 1));
        assertThat(filed.usage().of(Window.DAY))
                .as("the day window has only a shadow limit, so its usage is not reported")
                .isEqualTo(Tally.ZERO);
        assertThat(db.queryForObject(
                        """
                        SELECT limits::text || ' ' || usage::text
                        FROM risk_request_log
                        WHERE entity_id = ? AND channel_code = ? AND direction_code = 'OUT' AND dedupe_id = ?
                        """,
                        String.class,
                        key.entityId(),
                        key.channel(),
                        decisions.get(1).dedupeId()))
                .doesNotContain("day")
                .doesNotContain("20000");
    }

    /** risk_request_log.shadow_decision and shadow_reason of a decision, as filed. */
    private List<String> shadowColumns(Decision decision) {
        BusinessKey key = decision.fields().businessKey().orElseThrow();
        return db.queryForObject(
                """
                SELECT shadow_decision, shadow_reason
                FROM risk_request_log
                WHERE entity_id = ? AND channel_code = ? AND direction_code = ? AND dedupe_id = ?
                """,
                (rs, row) -> Arrays.asList(rs.getString(1), rs.getString(2)),
                key.entityId(),
                key.channel(),
                key.direction().name(),
                decision.dedupeId());
    }

    private static LimitRow enforced(String channel, Window window, long maxAmount, long maxCount) {
        return new LimitRow(channel, "OUT", null, window, maxAmount, maxCount);
    }

    private static LimitRow shadow(String channel, UUID entity, Window window, long maxAmount, long maxCount) {
        return new LimitRow(channel, "OUT", entity, window, maxAmount, maxCount, LimitRow.Mode.SHADOW);
    }

    /** A channel code of this test's own (risk_limit's form: capitals, digits, underscores). */
    private static String newChannel() {
        StringBuilder channel = new StringBuilder("SHADOW_");
        for (int i = 0; i < 10; i++) {
            channel.append((char) ('A' + CHANNELS.nextInt(26)));
        }
        return channel.toString();
    }

    private BusinessKey newKey(String channel) {
        return ownKeys.newKey(channel);
    }

    private static TransactionEvent authorization(BusinessKey key, long amount) {
        return new TransactionEvent(
                UUID.randomUUID(), key, amount, "USD", Instant.now().truncatedTo(ChronoUnit.MICROS));
    }
}
