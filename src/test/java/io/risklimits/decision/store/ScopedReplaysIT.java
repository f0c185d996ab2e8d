package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.DecisionJson;
import io.risklimits.decision.EventFields;
import io.risklimits.decision.EventType;
import io.risklimits.decision.FieldError;
import io.risklimits.decision.Limit;
import io.risklimits.decision.LimitPolicy;
import io.risklimits.decision.Limits;
import io.risklimits.decision.ReadResult;
import io.risklimits.decision.Reason;
import io.risklimits.decision.Scope;
import io.risklimits.decision.ScopeCheck;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.Window;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.TestInfrastructure;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A decision answered again from the audit log (a redelivery) is the message first published, byte for
 * byte but for replayed: with the event's account_id, for every kind of decision, and with the scopes
 * the authorization was checked at.
 */
@ExtendWith(NoRowsLeftBehind.class)
class ScopedReplaysIT {

    private static final Limits KEY_LIMITS = new Limits(Map.of(Window.LAST_24_HOURS, new Limit(1_000_000L, 100L)));
    private static final Limits ACCOUNT_LIMITS = new Limits(Map.of(Window.DAY, new Limit(500_000L, 1_000L)));

    private final DataSource dataSource = TestInfrastructure.get().dataSource();
    private final JdbcTemplate db = new JdbcTemplate(dataSource);
    private final BatchDecisionStore store = TestStores.batchDecisionStore(dataSource);
    private final TestKeys keys = new TestKeys();
    private final List<UUID> scopeOwners = new ArrayList<>();

    @AfterEach
    void deleteTheTestsRows() {
        keys.deleteTheirRows(db);
        for (UUID owner : scopeOwners) {
            db.update("DELETE FROM risk_scope_hourly_chunk WHERE owner_id = ?", owner);
        }
    }

    @Test
    void anAuthorizationWithAnAccountLimitIsReplayedWithItsAccountAndScopes() {
        BusinessKey key = newKey();
        UUID account = newAccount();
        TransactionEvent authorization = authorization(key, account, 1_200);
        Function<ScopeKey, Limits> limitsOf = accountLimited(account);

        Decision first = store.decideAll(List.of(authorization), limitsOf).get(0);
        Decision replay = store.decideAll(List.of(authorization), limitsOf).get(0);

        assertThat(first.verdict()).isEqualTo(Verdict.APPROVED);
        assertThat(first.scopes())
                .as("the scopes the authorization was checked at")
                .extracting(ScopeCheck::scope)
                .containsExactly(Scope.ACCOUNT);
        assertThat(replay.replayed()).isTrue();
        assertSameMessageButReplayed(replay, first);
    }

    @Test
    void aReversalAndAnInvalidEventAreReplayedWithTheAccountTheyNamed() {
        BusinessKey key = newKey();
        UUID account = newAccount();
        TransactionEvent authorization = authorization(key, account, 1_000);
        TransactionEvent reversal = new TransactionEvent(
                UUID.randomUUID(), key, 400, "USD", now(), EventType.REVERSAL, authorization.dedupeId(), account);
        ReadResult invalid = new ReadResult.Invalid(
                UUID.randomUUID(),
                new EventFields(
                        key.entityId(),
                        key.channel(),
                        key.direction(),
                        null,
                        "USD",
                        now(),
                        EventType.AUTHORIZATION,
                        null,
                        account),
                List.of(new FieldError("amount", "is required")));
        List<ReadResult> events = List.of(new ReadResult.Valid(authorization), new ReadResult.Valid(reversal), invalid);

        List<Decision> first = store.decideInOrder(events, any -> Limits.NONE);
        List<Decision> replays = store.decideInOrder(events, any -> Limits.NONE);

        assertThat(first)
                .extracting(Decision::verdict)
                .containsExactly(Verdict.APPROVED, Verdict.RELEASED, Verdict.INVALID);
        for (int i = 0; i < events.size(); i++) {
            assertThat(first.get(i).fields().accountId()).isEqualTo(account);
            assertThat(replays.get(i).fields().accountId())
                    .as(
                            "the account_id stored with the %s decision",
                            first.get(i).verdict())
                    .isEqualTo(account);
            assertSameMessageButReplayed(replays.get(i), first.get(i));
        }
    }

    /** The writer's half of a replay, whichever store decided: the row gives back the scopes as checked. */
    @Test
    void theAuditRowOfAnAuthorizationKeepsTheScopesItWasCheckedAt() {
        BusinessKey key = newKey();
        UUID account = newAccount();
        TransactionEvent authorization = authorization(key, account, 600_000);
        List<ScopeCheck> checks = List.of(
                new ScopeCheck(Scope.KEY, Usage.NONE, KEY_LIMITS),
                new ScopeCheck(Scope.ENTITY, Usage.NONE, Limits.NONE),
                new ScopeCheck(Scope.ACCOUNT_CHANNEL, Usage.NONE, Limits.NONE),
                new ScopeCheck(Scope.ACCOUNT, Usage.NONE, ACCOUNT_LIMITS));
        Instant decidedAt = now();
        Instant bucket = decidedAt.truncatedTo(ChronoUnit.HOURS);
        Decision decided =
                Decision.limitChecked(authorization, LimitPolicy.decide(600_000, checks), checks, bucket, decidedAt);
        RoundTrip trip = new RoundTrip(db);
        new RequestLogWriter()
                .insertAllLimitChecked(List.of(decided), new RequestLogWriter.Batch(any -> 0, bucket, decidedAt), trip);
        trip.run();

        Decision filed = new FiledDecisions(JdbcClient.create(dataSource))
                .find(key, authorization.dedupeId())
                .orElseThrow();

        assertThat(decided.reason()).isEqualTo(Reason.ACCOUNT_LIMIT_DAY_AMOUNT);
        assertThat(filed.scopes()).extracting(ScopeCheck::scope).containsExactly(Scope.ACCOUNT);
        assertThat(text(filed.asReplay())).isEqualTo(text(decided.asReplay()));
    }

    private static void assertSameMessageButReplayed(Decision replay, Decision first) {
        assertThat(replay.replayed()).isTrue();
        assertThat(text(replay)).isEqualTo(text(first.asReplay()));
    }

    private static String text(Decision decision) {
        return new String(DecisionJson.message(decision), StandardCharsets.UTF_8);
    }

    /** The business key's own limits, and a day limit on the account; no other scope is limited. */
    private static Function<ScopeKey, Limits> accountLimited(UUID account) {
        return scopeKey -> switch (scopeKey.scope()) {
            case KEY -> KEY_LIMITS;
            case ACCOUNT -> scopeKey.owner().equals(account) ? ACCOUNT_LIMITS : Limits.NONE;
            default -> Limits.NONE;
        };
    }

    private BusinessKey newKey() {
        BusinessKey key = keys.newKey();
        scopeOwners.add(key.entityId());
        return key;
    }

    private UUID newAccount() {
        UUID account = UUID.randomUUID();
        scopeOwners.add(account);
        return account;
    }

    private static TransactionEvent authorization(BusinessKey key, UUID account, long amount) {
        return new TransactionEvent(
                UUID.randomUUID(), key, amount, "USD", now(), EventType.AUTHORIZATION, null, account);
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
