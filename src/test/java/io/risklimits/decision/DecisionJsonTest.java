package io.risklimits.decision;

import static io.risklimits.support.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.hold.HoldLedger;
import io.risklimits.decision.hold.HoldOutcome;
import io.risklimits.decision.hold.HoldPolicy;
import io.risklimits.decision.hold.Original;
import io.risklimits.support.DecisionSchema;
import io.risklimits.support.Gen;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class DecisionJsonTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final UUID DEDUPE_ID = UUID.fromString("4b7c1f7e-1d7a-4c55-9d38-5f4f5c1a9e01");
    private static final UUID ENTITY_ID = UUID.fromString("d4300e83-3c2b-4d4e-8f5a-0e6c1b2a3d4f");
    private static final Instant BUCKET = Instant.parse("2026-11-23T08:00:00Z");
    private static final Instant DECIDED_AT = Instant.parse("2026-11-23T08:39:11.482295Z");

    private static final Usage USAGE = new Usage(Map.of(
            Window.LAST_24_HOURS, new Tally(1_200, 2),
            Window.LAST_7_DAYS, new Tally(5_000, 7),
            Window.LAST_30_DAYS, new Tally(9_000_000_000_000L, 30)));

    // no 30-day limit applies: the 30-day window is reported neither in usage nor in limits
    private static final Limits LIMITS = new Limits(Map.of(
            Window.TXN, new Limit(50_000L, null),
            Window.LAST_24_HOURS, new Limit(1_000_000L, 100L),
            Window.LAST_7_DAYS, new Limit(5_000_000L, 500L)));
    // what the request log gives back of USAGE under LIMITS: a window not reported has no usage
    private static final Usage USAGE_READ_BACK = new Usage(Map.of(
            Window.LAST_24_HOURS, new Tally(1_200, 2),
            Window.LAST_7_DAYS, new Tally(5_000, 7)));

    @Test
    void approvedMessageCarriesEveryFieldInTheSchemaShape() {
        Decision decision = new Decision(
                DEDUPE_ID,
                new EventFields(ENTITY_ID, "CARD", Direction.OUT, 1_200L, "USD", Instant.parse("2026-11-23T08:39:10Z")),
                Verdict.APPROVED,
                null,
                List.of(),
                USAGE,
                LIMITS,
                BUCKET,
                DECIDED_AT,
                null,
                null,
                List.of(),
                null,
                List.of(),
                null,
                null,
                null,
                null,
                false,
                null);

        byte[] message = DecisionJson.message(decision);

        DecisionSchema.assertValidDecision(message);
        JsonNode node = JSON.readTree(message);
        assertThat(node.get("dedupe_id").stringValue()).isEqualTo(DEDUPE_ID.toString());
        assertThat(node.get("entity_id").stringValue()).isEqualTo(ENTITY_ID.toString());
        assertThat(node.get("amount").longValue()).isEqualTo(1_200L);
        assertThat(node.get("reason").isNull()).isTrue();
        assertThat(node.get("usage").get("7d").get("amount").longValue()).isEqualTo(5_000L);
        assertThat(node.get("usage").has("30d")).isFalse();
        assertThat(node.get("usage").has("txn")).isFalse();
        assertThat(node.get("limits").get("7d").get("count").longValue()).isEqualTo(500L);
        assertThat(node.get("limits").get("txn").get("amount").longValue()).isEqualTo(50_000L);
        assertThat(node.get("limits").get("txn").has("count")).isFalse();
        assertThat(node.get("limits").has("30d")).isFalse();
        assertThat(node.has("shadow")).isFalse();
        assertThat(node.get("bucket_ts").stringValue()).isEqualTo("2026-11-23T08:00:00Z");
        assertThat(node.get("decided_at").stringValue()).isEqualTo("2026-11-23T08:39:11.482295Z");
        assertThat(node.get("replayed").booleanValue()).isFalse();
        assertThat(node.has("errors")).isFalse();
    }

    @Test
    void invalidMessageCarriesErrorsAndNullsForUnreadableFields() {
        Decision decision = Decision.invalid(
                DEDUPE_ID,
                new EventFields(null, "CARD", null, null, "USD", null),
                List.of(new FieldError("amount", "must be a positive integer"), new FieldError("entity_id", "\"x\"")),
                DECIDED_AT);

        byte[] message = DecisionJson.message(decision.asReplay());

        DecisionSchema.assertValidDecision(message);
        JsonNode node = JSON.readTree(message);
        assertThat(node.get("entity_id").isNull()).isTrue();
        assertThat(node.get("direction").isNull()).isTrue();
        assertThat(node.get("amount").isNull()).isTrue();
        assertThat(node.get("reason").stringValue()).isEqualTo("INVALID_REQUEST");
        assertThat(node.get("errors").get(1).get("message").stringValue()).isEqualTo("\"x\"");
        assertThat(node.get("replayed").booleanValue()).isTrue();
        assertThat(node.has("usage")).isFalse();
    }

    @Test
    void requestLogColumnsReadBackAsWritten() {
        assertThat(DecisionJson.usage(DecisionJson.usage(USAGE, LIMITS))).isEqualTo(USAGE_READ_BACK);
        assertThat(DecisionJson.limits(DecisionJson.limits(LIMITS))).isEqualTo(LIMITS);
        List<FieldError> errors = List.of(new FieldError("currency", "must be USD"));
        assertThat(DecisionJson.errors(DecisionJson.errors(errors))).isEqualTo(errors);
    }

    @Test
    void usageTextIsTheTextJacksonWrites() {
        Gen<Tally> tallies =
                random -> new Tally(Gen.longs().next(random), Gen.longs().next(random));
        Gen<Usage> usages = random -> {
            Tally last24Hours = tallies.next(random);
            Tally last7Days = tallies.next(random);
            Tally last30Days = tallies.next(random);
            return new Usage(Map.of(
                    Window.LAST_24_HOURS,
                    last24Hours,
                    Window.LAST_7_DAYS,
                    last7Days,
                    Window.LAST_30_DAYS,
                    last30Days,
                    Window.DAY,
                    new Tally(last24Hours.amount() / 2, last24Hours.count() / 2),
                    Window.WEEK,
                    new Tally(last7Days.amount() / 2, last7Days.count() / 2),
                    Window.MONTH,
                    new Tally(last30Days.amount() / 2, last30Days.count() / 2)));
        };
        Map<Window, Limit> everyWindow = new java.util.EnumMap<>(Window.class);
        for (Window window : Window.values()) {
            everyWindow.put(window, new Limit(1L, 1L));
        }

        forAll(300, usages, usage -> {
            ObjectNode expected = JSON.createObjectNode();
            for (Window window : Window.values()) {
                if (window.countsUsage()) {
                    expected.putObject(window.label())
                            .put("amount", usage.of(window).amount())
                            .put("count", usage.of(window).count());
                }
            }

            assertThat(DecisionJson.usage(usage, new Limits(everyWindow))).isEqualTo(JSON.writeValueAsString(expected));
        });
    }

    @Test
    void aReleasedReversalSaysWhatItGaveBackAndWhatRemains() {
        UUID original = UUID.fromString("9c2d7e1f-3a4b-4c5d-8e6f-7a8b9c0d1e2f");
        TransactionEvent reversal = new TransactionEvent(
                DEDUPE_ID,
                new BusinessKey(ENTITY_ID, "CARD", Direction.OUT),
                400,
                "USD",
                Instant.parse("2026-11-23T08:39:10Z"),
                EventType.REVERSAL,
                original);
        Decision decision = Decision.followUp(
                reversal,
                Verdict.RELEASED,
                null,
                USAGE,
                LIMITS,
                BUCKET,
                DECIDED_AT,
                new Tally(400, 1),
                0L,
                null,
                null,
                null,
                List.of());

        byte[] message = DecisionJson.message(decision);

        DecisionSchema.assertValidDecision(message);
        JsonNode node = JSON.readTree(message);
        assertThat(node.get("type").stringValue()).isEqualTo("REVERSAL");
        assertThat(node.get("reverses").stringValue()).isEqualTo(original.toString());
        assertThat(node.get("decision").stringValue()).isEqualTo("RELEASED");
        assertThat(node.get("reason").isNull()).isTrue();
        assertThat(node.get("released").get("amount").longValue()).isEqualTo(400);
        assertThat(node.get("released").get("count").longValue()).isEqualTo(1);
        assertThat(node.get("remaining").longValue()).isZero();
        assertThat(node.get("schema_version").intValue()).isEqualTo(3);
        assertThat(node.has("dedupe_conflict")).isFalse();
    }

    @Test
    void aConflictingReplayNamesTheFieldsThatDiffer() {
        TransactionEvent first = new TransactionEvent(
                DEDUPE_ID, new BusinessKey(ENTITY_ID, "CARD", Direction.OUT), 1_200, "USD", DECIDED_AT);
        Decision stored = Decision.limitChecked(first, Outcome.approved(), USAGE, LIMITS, BUCKET, DECIDED_AT);
        TransactionEvent reused = new TransactionEvent(
                DEDUPE_ID, new BusinessKey(ENTITY_ID, "CARD", Direction.OUT), 1_300, "USD", DECIDED_AT);

        List<String> differing = stored.differingFields(reused);
        byte[] message = DecisionJson.message(stored.asConflictingReplay(differing));

        assertThat(differing).containsExactly("amount");
        assertThat(stored.differingFields(first)).isEmpty();
        DecisionSchema.assertValidDecision(message);
        JsonNode node = JSON.readTree(message);
        assertThat(node.get("amount").longValue()).isEqualTo(1_200);
        assertThat(node.get("replayed").booleanValue()).isTrue();
        assertThat(node.get("dedupe_conflict").get(0).stringValue()).isEqualTo("amount");
        assertThat(node.get("type").stringValue()).isEqualTo("AUTHORIZATION");
    }

    @Test
    void keptLimitsTextsBelongToTheirOwnLimits() {
        for (long count = 1; count <= 3_000; count++) {
            Limits limits = new Limits(Map.of(
                    Window.LAST_24_HOURS, new Limit(count * 10, count),
                    Window.DAY, new Limit(count * 20, 7L),
                    Window.MONTH, new Limit(4_000L, count * 3)));
            assertThat(DecisionJson.limits(DecisionJson.limits(limits))).isEqualTo(limits);
        }
        assertThat(DecisionJson.limits(DecisionJson.limits(LIMITS))).isEqualTo(LIMITS);
    }

    @Test
    void anAuthorizationUnderShadowLimitsSaysWhatTheyWouldHaveDecided() {
        TransactionEvent event = new TransactionEvent(
                DEDUPE_ID, new BusinessKey(ENTITY_ID, "CARD", Direction.OUT), 1_200, "USD", DECIDED_AT);
        Limits shadow = new Limits(Map.of(Window.DAY, new Limit(1_000L, 10L)));
        Decision decision =
                Decision.limitChecked(event, Outcome.approved(), USAGE, LIMITS.withShadow(shadow), BUCKET, DECIDED_AT);

        byte[] message = DecisionJson.message(decision);

        DecisionSchema.assertValidDecision(message);
        JsonNode node = JSON.readTree(message);
        assertThat(node.get("decision").stringValue()).isEqualTo("APPROVED");
        assertThat(node.get("shadow").get("decision").stringValue()).isEqualTo("REJECTED");
        assertThat(node.get("shadow").get("reason").stringValue()).isEqualTo("LIMIT_DAY_AMOUNT");
        // the enforced limits alone are reported
        assertThat(node.get("limits").has("day")).isFalse();
        assertThat(decision.limits()).isEqualTo(LIMITS);
    }

    // ---------------------------------------------------------------- account_id and scopes

    private static final UUID ACCOUNT_ID = UUID.fromString("3e8b1c2d-7f4a-4b6e-9d0c-5a1f2e3d4c6b");
    private static final Usage ACCOUNT_USAGE =
            new Usage(Map.of(Window.DAY, new Tally(480_000, 12), Window.LAST_30_DAYS, new Tally(900_000, 40)));
    private static final Limits ACCOUNT_LIMITS = new Limits(Map.of(Window.DAY, new Limit(500_000L, 1_000L)));
    private static final Usage ACCOUNT_CHANNEL_USAGE = new Usage(Map.of(Window.LAST_7_DAYS, new Tally(70_000, 9)));
    private static final Limits ACCOUNT_CHANNEL_LIMITS =
            new Limits(Map.of(Window.TXN, new Limit(100_000L, null), Window.LAST_7_DAYS, new Limit(2_000_000L, 90L)));

    /** Key, entity (no limit in force), account_channel and account, as the decider checks them. */
    private static List<ScopeCheck> checksAtEveryScope() {
        return List.of(
                new ScopeCheck(Scope.KEY, USAGE, LIMITS),
                new ScopeCheck(
                        Scope.ENTITY, new Usage(Map.of(Window.LAST_24_HOURS, new Tally(30_000, 3))), Limits.NONE),
                new ScopeCheck(Scope.ACCOUNT_CHANNEL, ACCOUNT_CHANNEL_USAGE, ACCOUNT_CHANNEL_LIMITS),
                new ScopeCheck(Scope.ACCOUNT, ACCOUNT_USAGE, ACCOUNT_LIMITS));
    }

    private static TransactionEvent authorizationOfTheAccount(long amount) {
        return new TransactionEvent(
                DEDUPE_ID,
                new BusinessKey(ENTITY_ID, "CARD", Direction.OUT),
                amount,
                "USD",
                DECIDED_AT,
                EventType.AUTHORIZATION,
                null,
                ACCOUNT_ID);
    }

    @Test
    void aDecisionReportsTheScopesWithALimitInForceAndEchoesTheAccount() {
        List<ScopeCheck> checks = checksAtEveryScope();
        Outcome outcome = LimitPolicy.decide(30_000, checks);
        Decision decision =
                Decision.limitChecked(authorizationOfTheAccount(30_000), outcome, checks, BUCKET, DECIDED_AT);

        byte[] message = DecisionJson.message(decision);

        DecisionSchema.assertValidDecision(message);
        JsonNode node = JSON.readTree(message);
        assertThat(node.get("decision").stringValue()).isEqualTo("REJECTED");
        assertThat(node.get("reason").stringValue()).isEqualTo("ACCOUNT_LIMIT_DAY_AMOUNT");
        assertThat(node.get("account_id").stringValue()).isEqualTo(ACCOUNT_ID.toString());
        assertThat(node.get("schema_version").intValue()).isEqualTo(3);
        JsonNode scopes = node.get("scopes");
        assertThat(scopes).isNotNull();
        assertThat(scopes.propertyNames()).containsExactly("account_channel", "account");
        assertThat(JSON.writeValueAsString(scopes.get("account")))
                .isEqualTo("{\"usage\":{\"day\":{\"amount\":480000,\"count\":12}},"
                        + "\"limits\":{\"day\":{\"amount\":500000,\"count\":1000}}}");
        assertThat(JSON.writeValueAsString(scopes.get("account_channel")))
                .isEqualTo("{\"usage\":{\"7d\":{\"amount\":70000,\"count\":9}},"
                        + "\"limits\":{\"txn\":{\"amount\":100000},\"7d\":{\"amount\":2000000,\"count\":90}}}");
        // usage and limits stay the business key's
        assertThat(node.get("limits").get("7d").get("count").longValue()).isEqualTo(500L);
    }

    @Test
    void anEventWithoutAccountOrScopeLimitsCarriesNeitherAccountIdNorScopes() {
        TransactionEvent event = new TransactionEvent(
                DEDUPE_ID, new BusinessKey(ENTITY_ID, "CARD", Direction.OUT), 1_200, "USD", DECIDED_AT);
        List<ScopeCheck> checks =
                List.of(new ScopeCheck(Scope.KEY, USAGE, LIMITS), new ScopeCheck(Scope.ENTITY, USAGE, Limits.NONE));
        Decision decision = Decision.limitChecked(event, Outcome.approved(), checks, BUCKET, DECIDED_AT);

        byte[] message = DecisionJson.message(decision);

        DecisionSchema.assertValidDecision(message);
        JsonNode node = JSON.readTree(message);
        assertThat(node.has("account_id")).isFalse();
        assertThat(node.has("scopes")).isFalse();
        assertThat(node.get("schema_version").intValue()).isEqualTo(3);
    }

    @Test
    void anInvalidDecisionEchoesTheAccountItCouldRead() {
        Decision decision = Decision.invalid(
                DEDUPE_ID,
                new EventFields(
                        ENTITY_ID, "CARD", Direction.OUT, null, "USD", null, EventType.AUTHORIZATION, null, ACCOUNT_ID),
                List.of(new FieldError("amount", "is required")),
                DECIDED_AT);

        byte[] message = DecisionJson.message(decision);

        DecisionSchema.assertValidDecision(message);
        JsonNode node = JSON.readTree(message);
        assertThat(node.get("account_id").stringValue()).isEqualTo(ACCOUNT_ID.toString());
        assertThat(node.has("scopes")).isFalse();
    }

    @Test
    void aReversalEchoesTheAccountItNamedAndReportsNoScopes() {
        TransactionEvent reversal = new TransactionEvent(
                UUID.fromString("9c2d7e1f-3a4b-4c5d-8e6f-7a8b9c0d1e2f"),
                new BusinessKey(ENTITY_ID, "CARD", Direction.OUT),
                400,
                "USD",
                DECIDED_AT,
                EventType.REVERSAL,
                DEDUPE_ID,
                ACCOUNT_ID);
        Decision decision = Decision.followUp(
                reversal,
                Verdict.RELEASED,
                null,
                USAGE,
                LIMITS,
                BUCKET,
                DECIDED_AT,
                new Tally(400, 0),
                600L,
                null,
                null,
                null,
                List.of());

        byte[] message = DecisionJson.message(decision);

        DecisionSchema.assertValidDecision(message);
        JsonNode node = JSON.readTree(message);
        assertThat(node.get("account_id").stringValue()).isEqualTo(ACCOUNT_ID.toString());
        assertThat(node.has("scopes")).isFalse();
    }

    @Test
    void aConflictOnTheAccountNamesAccountId() {
        Decision stored = Decision.limitChecked(
                authorizationOfTheAccount(1_200), Outcome.approved(), USAGE, LIMITS, BUCKET, DECIDED_AT);
        TransactionEvent withoutAccount = new TransactionEvent(
                DEDUPE_ID, new BusinessKey(ENTITY_ID, "CARD", Direction.OUT), 1_200, "USD", DECIDED_AT);

        byte[] message = DecisionJson.message(stored.asConflictingReplay(stored.differingFields(withoutAccount)));

        DecisionSchema.assertValidDecision(message);
        assertThat(JSON.readTree(message).get("dedupe_conflict").get(0).stringValue())
                .isEqualTo("account_id");
    }

    @Test
    void theScopesColumnReadsBackAsWrittenAndIsNullWithoutScopes() {
        Decision decision = Decision.limitChecked(
                authorizationOfTheAccount(1_000), Outcome.approved(), checksAtEveryScope(), BUCKET, DECIDED_AT);

        String column = DecisionJson.scopes(decision.scopes());
        List<ScopeCheck> readBack = DecisionJson.scopes(column);

        assertThat(readBack).extracting(ScopeCheck::scope).containsExactly(Scope.ACCOUNT_CHANNEL, Scope.ACCOUNT);
        assertThat(readBack.get(1).limits()).isEqualTo(ACCOUNT_LIMITS);
        assertThat(readBack.get(1).usage().of(Window.DAY)).isEqualTo(new Tally(480_000, 12));
        assertThat(DecisionJson.scopes(readBack)).isEqualTo(column);
        assertThat(DecisionJson.scopes(List.of())).isNull();
    }

    // ---------------------------------------------------------------- holds: increments, captures, expiry

    private static final UUID HOLD_ID = UUID.fromString("7d3e9a10-5b2c-4f1e-8a7d-6c5b4a3f2e1d");
    private static final Instant HOLD_DECIDED_AT = Instant.parse("2026-11-22T10:05:00Z");
    private static final Instant HOLD_EXPIRES_AT = Instant.parse("2026-11-29T10:05:00Z");
    private static final HoldLedger OPEN_HOLD = HoldLedger.hold(1_000, HOLD_DECIDED_AT, HOLD_EXPIRES_AT);

    private static TransactionEvent followUpOfTheHold(
            EventType type, long amount, Instant holdExpiresAt, boolean isFinal) {
        return new TransactionEvent(
                DEDUPE_ID,
                new BusinessKey(ENTITY_ID, "CARD", Direction.OUT),
                amount,
                "USD",
                DECIDED_AT,
                type,
                null,
                null,
                HOLD_ID,
                holdExpiresAt,
                isFinal);
    }

    /** A capture of the original decided by the hold policy, reported as the decider reports it. */
    private static Decision capture(Original original, long amount, boolean isFinal) {
        HoldOutcome outcome = HoldPolicy.capture(original, amount, isFinal, DECIDED_AT);
        return Decision.followUp(
                followUpOfTheHold(EventType.CAPTURE, amount, null, isFinal),
                Verdict.CAPTURED,
                null,
                USAGE,
                LIMITS,
                BUCKET,
                DECIDED_AT,
                isFinal ? outcome.released() : null,
                outcome.remaining(),
                null,
                outcome.captured(),
                outcome.overCaptured(),
                List.of());
    }

    @Test
    void anApprovedHoldSaysWhenItExpires() {
        Decision decision = Decision.limitChecked(
                        authorizationOfTheAccount(1_000), Outcome.approved(), USAGE, LIMITS, BUCKET, DECIDED_AT)
                .asHoldUntil(HOLD_EXPIRES_AT);

        byte[] message = DecisionJson.message(decision);

        DecisionSchema.assertValidDecision(message);
        JsonNode node = JSON.readTree(message);
        assertThat(node.get("decision").stringValue()).isEqualTo("APPROVED");
        assertThat(node.get("type").stringValue()).isEqualTo("AUTHORIZATION");
        assertThat(node.get("hold_expires_at").stringValue()).isEqualTo("2026-11-29T10:05:00Z");
        assertThat(node.has("original")).isFalse();
        assertThat(node.has("captured")).isFalse();
    }

    @Test
    void anApprovedIncrementNamesItsHoldAndWhenItNowExpires() {
        Instant movedTo = HOLD_EXPIRES_AT.plus(java.time.Duration.ofDays(2));
        Decision decision = Decision.followUp(
                followUpOfTheHold(EventType.INCREMENT, 250, movedTo, true),
                Verdict.APPROVED,
                null,
                USAGE,
                LIMITS,
                BUCKET,
                DECIDED_AT,
                null,
                null,
                movedTo,
                null,
                null,
                List.of());

        byte[] message = DecisionJson.message(decision);

        DecisionSchema.assertValidDecision(message);
        JsonNode node = JSON.readTree(message);
        assertThat(node.get("type").stringValue()).isEqualTo("INCREMENT");
        assertThat(node.get("original").stringValue()).isEqualTo(HOLD_ID.toString());
        assertThat(node.get("hold_expires_at").stringValue()).isEqualTo("2026-12-01T10:05:00Z");
        assertThat(node.has("reverses")).isFalse();
        assertThat(node.has("remaining")).isFalse();
    }

    @Test
    void anIncrementOfAClosedHoldIsRejectedHoldClosed() {
        HoldLedger captured = (HoldLedger) HoldPolicy.capture(OPEN_HOLD, 1_000, true, HOLD_DECIDED_AT.plusSeconds(60))
                .after();
        HoldOutcome outcome = HoldPolicy.increment(captured, 250, DECIDED_AT, null, null);
        Decision decision = Decision.followUp(
                followUpOfTheHold(EventType.INCREMENT, 250, null, true),
                Verdict.REJECTED,
                Reason.valueOf(outcome.reason().code()),
                USAGE,
                LIMITS,
                BUCKET,
                DECIDED_AT,
                null,
                null,
                null,
                null,
                null,
                List.of());

        byte[] message = DecisionJson.message(decision);

        DecisionSchema.assertValidDecision(message);
        JsonNode node = JSON.readTree(message);
        assertThat(node.get("decision").stringValue()).isEqualTo("REJECTED");
        assertThat(node.get("reason").stringValue()).isEqualTo("HOLD_CLOSED");
        assertThat(node.get("original").stringValue()).isEqualTo(HOLD_ID.toString());
        assertThat(node.has("hold_expires_at")).isFalse();
    }

    @Test
    void aFinalCaptureSaysWhatItCapturedAndWhatItReleased() {
        byte[] message = DecisionJson.message(capture(OPEN_HOLD, 600, true));

        DecisionSchema.assertValidDecision(message);
        JsonNode node = JSON.readTree(message);
        assertThat(node.get("type").stringValue()).isEqualTo("CAPTURE");
        assertThat(node.get("decision").stringValue()).isEqualTo("CAPTURED");
        assertThat(node.get("reason").isNull()).isTrue();
        assertThat(node.get("original").stringValue()).isEqualTo(HOLD_ID.toString());
        assertThat(node.get("captured").longValue()).isEqualTo(600);
        assertThat(node.get("over_captured").longValue()).isZero();
        assertThat(JSON.writeValueAsString(node.get("released"))).isEqualTo("{\"amount\":400,\"count\":0}");
        assertThat(node.get("remaining").longValue()).isEqualTo(600);
        assertThat(node.has("usage")).isTrue();
        assertThat(node.has("bucket_ts")).isTrue();
    }

    @Test
    void aCaptureThatIsNotFinalReleasesNothingAndLeavesTheRestHeld() {
        byte[] message = DecisionJson.message(capture(OPEN_HOLD, 600, false));

        DecisionSchema.assertValidDecision(message);
        JsonNode node = JSON.readTree(message);
        assertThat(node.get("captured").longValue()).isEqualTo(600);
        assertThat(node.has("released")).isFalse();
        assertThat(node.get("remaining").longValue()).isEqualTo(1_000);
    }

    @Test
    void aCaptureBeyondTheHoldCountsTheExcessAnewAndReleasesNothing() {
        byte[] message = DecisionJson.message(capture(OPEN_HOLD, 1_150, true));

        DecisionSchema.assertValidDecision(message);
        JsonNode node = JSON.readTree(message);
        assertThat(node.get("captured").longValue()).isEqualTo(1_000);
        assertThat(node.get("over_captured").longValue()).isEqualTo(150);
        assertThat(JSON.writeValueAsString(node.get("released"))).isEqualTo("{\"amount\":0,\"count\":0}");
        assertThat(node.get("remaining").longValue()).isEqualTo(1_150);
    }

    @Test
    void aCaptureWithoutAnAuthorizationIsCountedAnewInFull() {
        byte[] message = DecisionJson.message(capture(Original.NoLedger.NOT_FOUND, 500, true));

        DecisionSchema.assertValidDecision(message);
        JsonNode node = JSON.readTree(message);
        assertThat(node.get("captured").longValue()).isZero();
        assertThat(node.get("over_captured").longValue()).isEqualTo(500);
        assertThat(node.has("remaining")).isFalse();
    }

    @Test
    void anExpiryReleasesWhatTheHoldStillHeldWithoutUsageOrLimits() {
        HoldLedger partlyCaptured =
                (HoldLedger) HoldPolicy.capture(OPEN_HOLD, 300, false, HOLD_DECIDED_AT.plusSeconds(60))
                        .after();
        HoldOutcome expiry = HoldPolicy.expire(partlyCaptured, DECIDED_AT.plus(java.time.Duration.ofDays(7)))
                .orElseThrow();
        Decision decision = ExpiryDecision.of(
                UUID.nameUUIDFromBytes(HOLD_ID.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                HOLD_ID,
                new EventFields(
                        ENTITY_ID,
                        "CARD",
                        Direction.OUT,
                        1_000L,
                        "USD",
                        HOLD_DECIDED_AT,
                        EventType.AUTHORIZATION,
                        null),
                HOLD_EXPIRES_AT,
                expiry.released(),
                expiry.remaining(),
                BUCKET,
                DECIDED_AT);

        byte[] message = DecisionJson.message(decision);

        DecisionSchema.assertValidDecision(message);
        JsonNode node = JSON.readTree(message);
        assertThat(node.get("type").stringValue()).isEqualTo("EXPIRY");
        assertThat(node.get("decision").stringValue()).isEqualTo("EXPIRED");
        assertThat(node.get("reason").isNull()).isTrue();
        assertThat(node.get("original").stringValue()).isEqualTo(HOLD_ID.toString());
        assertThat(node.get("amount").longValue()).isEqualTo(1_000);
        assertThat(JSON.writeValueAsString(node.get("released"))).isEqualTo("{\"amount\":700,\"count\":0}");
        assertThat(node.get("remaining").longValue()).isEqualTo(300);
        assertThat(node.get("hold_expires_at").stringValue()).isEqualTo("2026-11-29T10:05:00Z");
        assertThat(node.get("bucket_ts").stringValue()).isEqualTo("2026-11-23T08:00:00Z");
        assertThat(node.has("usage")).isFalse();
        assertThat(node.has("limits")).isFalse();
    }

    @Test
    void aReversalThatNamedItsOriginalInOriginalAloneCarriesOriginalWithoutReverses() {
        TransactionEvent reversal = new TransactionEvent(
                DEDUPE_ID,
                new BusinessKey(ENTITY_ID, "CARD", Direction.OUT),
                400,
                "USD",
                DECIDED_AT,
                EventType.REVERSAL,
                null,
                null,
                HOLD_ID,
                null,
                true);
        Decision decision = Decision.followUp(
                reversal,
                Verdict.RELEASED,
                null,
                USAGE,
                LIMITS,
                BUCKET,
                DECIDED_AT,
                new Tally(400, 0),
                600L,
                null,
                null,
                null,
                List.of());

        byte[] message = DecisionJson.message(decision);

        DecisionSchema.assertValidDecision(message);
        JsonNode node = JSON.readTree(message);
        assertThat(node.get("decision").stringValue()).isEqualTo("RELEASED");
        assertThat(node.get("original").stringValue()).isEqualTo(HOLD_ID.toString());
        assertThat(node.has("reverses")).isFalse();
    }

    @Test
    void aConflictingReplayOfACaptureNamesTheHoldFieldsThatDiffer() {
        Decision stored = capture(OPEN_HOLD, 600, true);
        TransactionEvent notFinal = followUpOfTheHold(EventType.CAPTURE, 600, null, false);

        List<String> differing = stored.differingFields(notFinal);
        byte[] message = DecisionJson.message(stored.asConflictingReplay(differing));

        assertThat(differing).containsExactly("final");
        DecisionSchema.assertValidDecision(message);
        assertThat(JSON.readTree(message).get("dedupe_conflict").get(0).stringValue())
                .isEqualTo("final");
    }

    /**
     * The decision schema states each hold decision's shape: a message the writer makes, changed in one
     * way its shape forbids, is refused.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("holdDecisionsOutOfShape")
    void theSchemaRefusesAHoldDecisionOutOfItsShape(String description, byte[] message) {
        assertThat(DecisionSchema.isValidDecision(message)).as(description).isFalse();
    }

    static Stream<Arguments> holdDecisionsOutOfShape() {
        byte[] capture = DecisionJson.message(capture(OPEN_HOLD, 600, true));
        byte[] approvedHold = DecisionJson.message(Decision.limitChecked(
                        authorizationOfTheAccount(1_000), Outcome.approved(), USAGE, LIMITS, BUCKET, DECIDED_AT)
                .asHoldUntil(HOLD_EXPIRES_AT));
        byte[] expiry = DecisionJson.message(ExpiryDecision.of(
                DEDUPE_ID,
                HOLD_ID,
                new EventFields(ENTITY_ID, "CARD", Direction.OUT, 1_000L, "USD", HOLD_DECIDED_AT),
                HOLD_EXPIRES_AT,
                new Tally(1_000, 1),
                0,
                BUCKET,
                DECIDED_AT));
        byte[] rejectedIncrement = DecisionJson.message(Decision.followUp(
                followUpOfTheHold(EventType.INCREMENT, 250, null, true),
                Verdict.REJECTED,
                Reason.HOLD_CLOSED,
                USAGE,
                LIMITS,
                BUCKET,
                DECIDED_AT,
                null,
                null,
                null,
                null,
                null,
                List.of()));
        return Stream.of(
                changed("a capture without captured", capture, m -> m.remove("captured")),
                changed("a capture without over_captured", capture, m -> m.remove("over_captured")),
                changed("a capture without original", capture, m -> m.remove("original")),
                changed("a capture without usage", capture, m -> m.remove("usage")),
                changed("a capture with a reason", capture, m -> m.put("reason", "ORIGINAL_NOT_FOUND")),
                changed("a capture with a negative over_captured", capture, m -> m.put("over_captured", -1)),
                changed(
                        "a capture with hold_expires_at",
                        capture,
                        m -> m.put("hold_expires_at", "2026-11-29T10:05:00Z")),
                changed("CAPTURED for an authorization", capture, m -> {
                    m.put("type", "AUTHORIZATION");
                    m.remove("original");
                }),
                changed("a capture REJECTED", capture, m -> {
                    m.put("decision", "REJECTED");
                    m.put("reason", "LIMIT_24H_AMOUNT");
                    m.remove("released");
                    m.remove("captured");
                    m.remove("over_captured");
                }),
                changed("captured on an approved authorization", approvedHold, m -> m.put("captured", 0)),
                changed("an approved authorization naming an original", approvedHold, m -> m.put("original", HOLD_ID)),
                changed("an approved increment without its original", approvedHold, m -> m.put("type", "INCREMENT")),
                changed(
                        "an approved hold with a released",
                        approvedHold,
                        m -> m.put("released", Map.of("amount", 1, "count", 0))),
                changed("an expiry with usage", expiry, m -> m.put("usage", Map.of())),
                changed("an expiry with limits", expiry, m -> m.put("limits", Map.of())),
                changed("an expiry without original", expiry, m -> m.remove("original")),
                changed("an expiry without released", expiry, m -> m.remove("released")),
                changed("an expiry without remaining", expiry, m -> m.remove("remaining")),
                changed("an expiry without hold_expires_at", expiry, m -> m.remove("hold_expires_at")),
                changed("an expiry without bucket_ts", expiry, m -> m.remove("bucket_ts")),
                changed("an expiry with a reason", expiry, m -> m.put("reason", "ORIGINAL_NOT_FOUND")),
                changed("EXPIRED for an authorization", expiry, m -> m.put("type", "AUTHORIZATION")),
                changed("an EXPIRY type approved", expiry, m -> {
                    m.put("decision", "APPROVED");
                    m.put("usage", Map.of());
                    m.put("limits", Map.of());
                    m.remove("released");
                    m.remove("remaining");
                }),
                changed("HOLD_CLOSED on a reversal", rejectedIncrement, m -> m.put("type", "REVERSAL")),
                changed("a rejected increment without original", rejectedIncrement, m -> m.remove("original")),
                changed(
                        "a rejected increment with hold_expires_at",
                        rejectedIncrement,
                        m -> m.put("hold_expires_at", "2026-11-29T10:05:00Z")),
                changed("an unknown dedupe_conflict field", capture, m -> m.put("dedupe_conflict", List.of("tip"))));
    }

    private static Arguments changed(String description, byte[] message, Consumer<Map<String, Object>> change) {
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = JSON.readValue(message, java.util.LinkedHashMap.class);
        change.accept(fields);
        return Arguments.of(description, JSON.writeValueAsBytes(fields));
    }
}
