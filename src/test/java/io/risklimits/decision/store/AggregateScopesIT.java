package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.Direction;
import io.risklimits.decision.EventType;
import io.risklimits.decision.Limit;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Reason;
import io.risklimits.decision.Scope;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Tally;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.Window;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.TestInfrastructure;
import java.sql.Connection;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Limits and usage at the entity, account-channel and account scopes through the batched store against
 * a real PostgreSQL: every authorization counted at each scope it belongs to, approved only when every
 * scope admits it, a reversal released where its original was counted, and the locks of every scope key
 * a batch writes held by it.
 */
@ExtendWith(NoRowsLeftBehind.class)
class AggregateScopesIT {

    private static final Limits THOUSAND_A_DAY = new Limits(Map.of(Window.DAY, new Limit(1_000L, 100L)));

    private final DataSource dataSource = TestInfrastructure.get().dataSource();
    private final JdbcTemplate db = new JdbcTemplate(dataSource);
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final BatchDecisionStore store = TestStores.batchDecisionStore(dataSource, Clock.systemUTC(), meters);
    private final TestKeys ownKeys = new TestKeys();

    @AfterEach
    void deleteTheRowsOfTheTestsKeys() {
        ownKeys.deleteTheirRows(db);
    }

    @Test
    void twoCardsOfOneAccountNeverTogetherPassTheAccountsLimit() {
        UUID account = ownKeys.newAccount();
        BusinessKey firstCard = newKey("CARD");
        BusinessKey secondCard = newKey("CARD");
        Function<ScopeKey, Limits> accountLimit = limitAt(Scope.ACCOUNT, THOUSAND_A_DAY);

        Decision first = decide(authorization(firstCard, 600, account), accountLimit);
        Decision second = decide(authorization(secondCard, 600, account), accountLimit);
        Decision fits = decide(authorization(secondCard, 400, account), accountLimit);

        assertThat(first.verdict()).isEqualTo(Verdict.APPROVED);
        assertThat(second.verdict()).isEqualTo(Verdict.REJECTED);
        assertThat(second.reason()).isEqualTo(Reason.ACCOUNT_LIMIT_DAY_AMOUNT);
        assertThat(second.scopes()).singleElement().satisfies(check -> {
            assertThat(check.scope()).isEqualTo(Scope.ACCOUNT);
            assertThat(check.usage().of(Window.DAY)).isEqualTo(new Tally(600, 1));
        });
        assertThat(second.usage().of(Window.DAY))
                .as("the second card's own usage")
                .isEqualTo(Tally.ZERO);
        assertThat(fits.verdict()).isEqualTo(Verdict.APPROVED);
        assertThat(bucketSum(new ScopeKey(Scope.ACCOUNT, account, ScopeKey.ALL_CHANNELS, Direction.OUT)))
                .isEqualTo(new Tally(1_000, 2));
    }

    @Test
    void inOneBatchTheSecondCardSeesWhatTheFirstTook() {
        UUID account = ownKeys.newAccount();
        BusinessKey firstCard = newKey("CARD");
        BusinessKey secondCard = newKey("CARD");

        List<Decision> decisions = store.decideAll(
                List.of(authorization(firstCard, 600, account), authorization(secondCard, 600, account)),
                limitAt(Scope.ACCOUNT_CHANNEL, THOUSAND_A_DAY));

        assertThat(decisions).extracting(Decision::verdict).containsExactly(Verdict.APPROVED, Verdict.REJECTED);
        assertThat(decisions.get(1).reason()).isEqualTo(Reason.ACCOUNT_CHANNEL_LIMIT_DAY_AMOUNT);
    }

    @Test
    void theEntityScopeAddsUpEveryChannelOfTheEntity() {
        UUID entity = ownKeys.newEntity();
        BusinessKey card = new BusinessKey(entity, "CARD", Direction.OUT);
        BusinessKey ach = new BusinessKey(entity, "ACH", Direction.OUT);
        BusinessKey incoming = new BusinessKey(entity, "ACH", Direction.IN);
        Function<ScopeKey, Limits> entityLimit = limitAt(Scope.ENTITY, THOUSAND_A_DAY);

        assertThat(decide(authorization(card, 600, null), entityLimit).verdict())
                .isEqualTo(Verdict.APPROVED);
        Decision second = decide(authorization(ach, 600, null), entityLimit);
        Decision otherDirection = decide(authorization(incoming, 600, null), entityLimit);

        assertThat(second.reason()).isEqualTo(Reason.ENTITY_LIMIT_DAY_AMOUNT);
        assertThat(otherDirection.verdict())
                .as("the entity's other direction is a scope key of its own")
                .isEqualTo(Verdict.APPROVED);
    }

    @Test
    void usageIsCountedAtEveryScopeBeforeAnyLimitExistsThere() {
        UUID account = ownKeys.newAccount();
        BusinessKey card = newKey("CARD");
        decide(authorization(card, 700, account), anyKey -> Limits.NONE);

        Decision later = decide(authorization(newKey("ACH"), 700, account), limitAt(Scope.ACCOUNT, THOUSAND_A_DAY));

        assertThat(later.reason()).isEqualTo(Reason.ACCOUNT_LIMIT_DAY_AMOUNT);
        assertThat(bucketSum(new ScopeKey(Scope.ENTITY, card.entityId(), ScopeKey.ALL_CHANNELS, Direction.OUT)))
                .isEqualTo(new Tally(700, 1));
        assertThat(bucketSum(new ScopeKey(Scope.ACCOUNT_CHANNEL, account, "CARD", Direction.OUT)))
                .isEqualTo(new Tally(700, 1));
    }

    @Test
    void aReversalWithoutAnAccountReleasesAtEveryScopeItsOriginalWasCountedAt() {
        UUID account = ownKeys.newAccount();
        BusinessKey card = newKey("CARD");
        TransactionEvent original = authorization(card, 1_000, account);
        decide(original, anyKey -> Limits.NONE);

        Decision released = decide(reversal(card, original, 1_000, null), anyKey -> Limits.NONE);

        assertThat(released.verdict()).isEqualTo(Verdict.RELEASED);
        for (ScopeKey countedAt : ScopeKey.countedAt(card, account)) {
            if (countedAt.scope() != Scope.KEY) {
                assertThat(bucketSum(countedAt)).as(countedAt.toString()).isEqualTo(Tally.ZERO);
            }
        }
        assertThat(decide(authorization(newKey("CARD"), 1_000, account), limitAt(Scope.ACCOUNT, THOUSAND_A_DAY))
                        .verdict())
                .isEqualTo(Verdict.APPROVED);
    }

    @Test
    void aReversalNamingAnotherAccountReleasesWhereItsOriginalWasCounted() {
        UUID account = ownKeys.newAccount();
        UUID otherAccount = ownKeys.newAccount();
        BusinessKey card = newKey("CARD");
        TransactionEvent original = authorization(card, 500, account);
        decide(original, anyKey -> Limits.NONE);
        decide(authorization(newKey("CARD"), 200, otherAccount), anyKey -> Limits.NONE);

        decide(reversal(card, original, 500, otherAccount), anyKey -> Limits.NONE);

        assertThat(bucketSum(new ScopeKey(Scope.ACCOUNT, account, ScopeKey.ALL_CHANNELS, Direction.OUT)))
                .isEqualTo(Tally.ZERO);
        assertThat(bucketSum(new ScopeKey(Scope.ACCOUNT, otherAccount, ScopeKey.ALL_CHANNELS, Direction.OUT)))
                .isEqualTo(new Tally(200, 1));
    }

    @Test
    void aReversalEarlyInAPollFreesRoomAtTheAccountForAnotherCardLaterInThePoll() {
        UUID account = ownKeys.newAccount();
        BusinessKey firstCard = newKey("CARD");
        TransactionEvent original = authorization(firstCard, 1_000, account);
        Function<ScopeKey, Limits> accountLimit = limitAt(Scope.ACCOUNT, THOUSAND_A_DAY);
        decide(original, accountLimit);

        List<Decision> poll = store.decideAll(
                List.of(reversal(firstCard, original, 1_000, null), authorization(newKey("ACH"), 1_000, account)),
                accountLimit);

        assertThat(poll).extracting(Decision::verdict).containsExactly(Verdict.RELEASED, Verdict.APPROVED);
    }

    /**
     * The original is committed while the reversal's batch waits for the original's business key (by the
     * holder of its lock, as another worker would): the batch reads it under that lock and locks the
     * original's account scopes before it releases there.
     */
    @Test
    void anOriginalCommittedWhileTheReversalWaitedHasItsAccountLockedBeforeTheRelease() throws Exception {
        UUID account = ownKeys.newAccount();
        BusinessKey card = newKey("CARD");
        TransactionEvent original = authorization(card, 800, account);
        CompletableFuture<Decision> released;
        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            BatchBegin.begin(holder, card.entityId());
            released = CompletableFuture.supplyAsync(
                    () -> decide(reversal(card, original, 800, null), anyKey -> Limits.NONE));
            Awaitility.await().atMost(30, TimeUnit.SECONDS).until(() -> waitingForAnAdvisoryLock() > 0);
            fileApprovedOriginal(holder, original, "0 hours");
            holder.commit();
        }

        assertThat(released.get(30, TimeUnit.SECONDS).verdict()).isEqualTo(Verdict.RELEASED);
        for (ScopeKey countedAt : ScopeKey.countedAt(card, account)) {
            if (countedAt.scope() != Scope.KEY) {
                assertThat(bucketSum(countedAt)).as(countedAt.toString()).isEqualTo(Tally.ZERO);
            }
        }
    }

    /**
     * Another worker remembers the account scope's window starts; then a release three days back lowers
     * the account's totals before its windows: that worker's next decision at the account must see it.
     */
    @Test
    void anotherWorkersRememberedAccountWindowStartsDoNotHideARelease() throws Exception {
        UUID account = ownKeys.newAccount();
        BusinessKey oldCard = newKey("CARD");
        TransactionEvent old = authorization(oldCard, 1_000, account);
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            fileApprovedOriginal(connection, old, "3 days");
            connection.commit();
        }
        BatchDecisionStore otherWorker = workerRememberingTheStartsOf(account);

        decide(reversal(oldCard, old, 1_000, null), anyKey -> Limits.NONE);
        Decision after = fiftyAtTheAccount(otherWorker, account);

        // the release lowered the account's totals before the 24-hour window's first bucket, this hour's
        assertThat(after.scopes()).singleElement().satisfies(check -> {
            assertThat(check.usage().of(Window.LAST_24_HOURS)).isEqualTo(new Tally(1_510, 2));
            assertThat(check.usage().of(Window.LAST_7_DAYS))
                    .as("the account's 7-day usage without the released 1,000")
                    .isEqualTo(new Tally(1_510, 2));
        });
    }

    /**
     * An operator's correction of an old account bucket through the triggers (a backfill) carries forward
     * into the account's later buckets: another worker's remembered account starts must not hide it.
     */
    @Test
    void aCorrectionOfAnOldAccountBucketIsSeenByAnotherWorkersRememberedStarts() throws Exception {
        UUID account = ownKeys.newAccount();
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            fileApprovedOriginal(connection, authorization(newKey("CARD"), 1_000, account), "3 days");
            connection.commit();
        }
        BatchDecisionStore otherWorker = workerRememberingTheStartsOf(account);

        db.update("""
                UPDATE risk_scope_hourly_agg SET sum_amount = sum_amount + 500
                WHERE scope = 'account' AND owner_id = ?
                  AND bucket_ts = date_trunc('hour', now() AT TIME ZONE 'UTC') - interval '3 days'
                """, account);
        Decision after = fiftyAtTheAccount(otherWorker, account);

        assertThat(after.scopes()).singleElement().satisfies(check -> {
            assertThat(check.usage().of(Window.LAST_24_HOURS))
                    .as("the account's 24-hour usage, without the corrected hour three days back")
                    .isEqualTo(new Tally(1_510, 2));
            assertThat(check.usage().of(Window.LAST_7_DAYS)).isEqualTo(new Tally(3_010, 3));
        });
    }

    // another worker that has decided 1,500 and then 10 at the account: the second decision finds this
    // hour's bucket of the account, so the worker remembers the account's window starts
    private BatchDecisionStore workerRememberingTheStartsOf(UUID account) {
        BatchDecisionStore otherWorker = TestStores.batchDecisionStore(dataSource);
        otherWorker.decideAll(List.of(authorization(newKey("CARD"), 1_500, account)), anyKey -> Limits.NONE);
        otherWorker.decideAll(List.of(authorization(newKey("CARD"), 10, account)), anyKey -> Limits.NONE);
        return otherWorker;
    }

    // an authorization of 50 at the account, whose 24-hour and 7-day limits it publishes the usage of
    private Decision fiftyAtTheAccount(BatchDecisionStore worker, UUID account) {
        Limits accountLimits = new Limits(
                Map.of(Window.LAST_24_HOURS, new Limit(10_000L, 100L), Window.LAST_7_DAYS, new Limit(10_000L, 100L)));
        return worker.decideAll(
                        List.of(authorization(newKey("CARD"), 50, account)), limitAt(Scope.ACCOUNT, accountLimits))
                .get(0);
    }

    // what a batch that approved the authorization age ago wrote: its audit row and its buckets at every
    // scope, the running totals left to the triggers
    private static void fileApprovedOriginal(Connection connection, TransactionEvent original, String age)
            throws Exception {
        JdbcTemplate holder = new JdbcTemplate(new SingleConnectionDataSource(connection, true));
        BusinessKey key = original.businessKey();
        holder.queryForObject("SELECT set_config('risk.running_totals_written_by', '', true)", String.class);
        holder.update(
                """
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, occurred_at, decided_at, type, account_id)
                VALUES (?, ?, ?, ?, date_trunc('hour', now() AT TIME ZONE 'UTC') - CAST(? AS interval), 'APPROVED', ?, 'USD', now(), now(),
                        'AUTHORIZATION', ?)
                """,
                key.entityId(),
                key.channel(),
                key.direction().name(),
                original.dedupeId(),
                age,
                original.amount(),
                original.accountId());
        holder.update("""
                INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)
                VALUES (?, ?, ?, date_trunc('hour', now() AT TIME ZONE 'UTC') - CAST(? AS interval), ?, 1)
                """, key.entityId(), key.channel(), key.direction().name(), age, original.amount());
        for (ScopeKey countedAt : original.scopeKeys()) {
            if (countedAt.scope() != Scope.KEY) {
                holder.update(
                        """
                        INSERT INTO risk_scope_hourly_agg (scope, owner_id, channel_code, direction_code, bucket_ts,
                                                           sum_amount, tx_count)
                        VALUES (?, ?, ?, ?, date_trunc('hour', now() AT TIME ZONE 'UTC') - CAST(? AS interval), ?, 1)
                        """,
                        countedAt.scope().label(),
                        countedAt.owner(),
                        countedAt.channel(),
                        countedAt.direction().name(),
                        age,
                        original.amount());
            }
        }
    }

    private int waitingForAnAdvisoryLock() {
        return db.queryForObject(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted", Integer.class);
    }

    private Decision decide(TransactionEvent event, Function<ScopeKey, Limits> limits) {
        return store.decideAll(List.of(event), limits).get(0);
    }

    /** The given limits at one scope, none at the others. */
    private static Function<ScopeKey, Limits> limitAt(Scope scope, Limits limits) {
        return key -> key.scope() == scope ? limits : Limits.NONE;
    }

    private Tally bucketSum(ScopeKey key) {
        return db.queryForObject(
                """
                SELECT coalesce(sum(sum_amount), 0), coalesce(sum(tx_count), 0)
                FROM risk_scope_hourly_agg
                WHERE scope = ? AND owner_id = ? AND channel_code = ? AND direction_code = ?
                """,
                (rs, row) -> new Tally(rs.getLong(1), rs.getLong(2)),
                key.scope().label(),
                key.owner(),
                key.channel(),
                key.direction().name());
    }

    private BusinessKey newKey(String channel) {
        return ownKeys.newKey(channel);
    }

    private static TransactionEvent authorization(BusinessKey key, long amount, UUID account) {
        return new TransactionEvent(
                UUID.randomUUID(),
                key,
                amount,
                "USD",
                Instant.now().truncatedTo(ChronoUnit.MICROS),
                EventType.AUTHORIZATION,
                null,
                account);
    }

    private static TransactionEvent reversal(BusinessKey key, TransactionEvent original, long amount, UUID account) {
        return new TransactionEvent(
                UUID.randomUUID(),
                key,
                amount,
                "USD",
                Instant.now().truncatedTo(ChronoUnit.MICROS),
                EventType.REVERSAL,
                original.dedupeId(),
                account);
    }
}
