package io.risklimits.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.Limit;
import io.risklimits.decision.LimitPolicy;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Outcome;
import io.risklimits.decision.Reason;
import io.risklimits.decision.Scope;
import io.risklimits.decision.ScopeCheck;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Tally;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Window;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class LimitTableTest {

    private static final UUID ENTITY = UUID.fromString("6f1c1a9e-3d2b-4c1e-9a47-2b5f0c7d8e11");
    private static final BusinessKey CARD_OUT = new BusinessKey(ENTITY, "CARD", Direction.OUT);
    private static final UUID ACCOUNT = UUID.fromString("0b3e8c52-7d14-4f2a-b6c9-1e5d7a9f3c20");
    // an account's key scopes, and the entity's, of an event of CARD_OUT that names ACCOUNT
    private static final List<ScopeKey> COUNTED_AT = ScopeKey.countedAt(CARD_OUT, ACCOUNT);

    private static final LimitRow DEFAULT_24H = new LimitRow("*", "*", null, Window.LAST_24_HOURS, 1_000_000, 100);
    private static final LimitRow DEFAULT_7D = new LimitRow("*", "*", null, Window.LAST_7_DAYS, 5_000_000, 500);

    @Test
    void theDefaultsApplyWhenNothingMoreSpecificMatches() {
        LimitTable table = new LimitTable(List.of(DEFAULT_24H, DEFAULT_7D));

        assertThat(table.limitsFor(CARD_OUT).of(Window.LAST_24_HOURS)).isEqualTo(new Limit(1_000_000L, 100L));
    }

    @Test
    void aWindowWithNoRowAtAllIsUnlimited() {
        LimitTable table = new LimitTable(List.of(DEFAULT_24H, DEFAULT_7D));

        assertThat(table.limitsFor(CARD_OUT).of(Window.LAST_30_DAYS)).isEqualTo(Limit.UNLIMITED);
    }

    @Test
    void channelAndDirectionBeatTheDefaultsAndTheEntityBeatsBoth() {
        LimitTable table = new LimitTable(List.of(
                DEFAULT_24H,
                new LimitRow("CARD", "OUT", null, Window.LAST_24_HOURS, 50_000, 20),
                new LimitRow("CARD", "OUT", ENTITY, Window.LAST_24_HOURS, 3_000, 5)));

        assertThat(table.limitsFor(CARD_OUT).of(Window.LAST_24_HOURS)).isEqualTo(new Limit(3_000L, 5L));
        BusinessKey otherEntity = new BusinessKey(UUID.randomUUID(), "CARD", Direction.OUT);
        assertThat(table.limitsFor(otherEntity).of(Window.LAST_24_HOURS)).isEqualTo(new Limit(50_000L, 20L));
        BusinessKey otherChannel = new BusinessKey(UUID.randomUUID(), "ACH", Direction.OUT);
        assertThat(table.limitsFor(otherChannel).of(Window.LAST_24_HOURS)).isEqualTo(new Limit(1_000_000L, 100L));
    }

    @Test
    void anOverrideOfOneWindowLeavesTheOthersToTheGeneralRows() {
        LimitTable table = new LimitTable(
                List.of(DEFAULT_24H, DEFAULT_7D, new LimitRow("*", "*", ENTITY, Window.LAST_24_HOURS, 10, 1)));

        assertThat(table.limitsFor(CARD_OUT).of(Window.LAST_24_HOURS)).isEqualTo(new Limit(10L, 1L));
        assertThat(table.limitsFor(CARD_OUT).of(Window.LAST_7_DAYS)).isEqualTo(new Limit(5_000_000L, 500L));
    }

    @Test
    void aChannelRowBeatsADirectionRow() {
        LimitTable table = new LimitTable(List.of(
                new LimitRow("*", "OUT", null, Window.LAST_24_HOURS, 1, 1),
                new LimitRow("CARD", "*", null, Window.LAST_24_HOURS, 2, 2)));

        assertThat(table.limitsFor(CARD_OUT).of(Window.LAST_24_HOURS)).isEqualTo(new Limit(2L, 2L));
    }

    @Test
    void rowsOfAnotherDirectionOrChannelDoNotApply() {
        LimitTable table = new LimitTable(List.of(
                new LimitRow("CARD", "IN", ENTITY, Window.LAST_24_HOURS, 1, 1),
                new LimitRow("WIRE", "OUT", ENTITY, Window.LAST_24_HOURS, 2, 2)));

        assertThat(table.limitsFor(CARD_OUT).of(Window.LAST_24_HOURS)).isEqualTo(Limit.UNLIMITED);
    }

    @Test
    void theShadowSetReplacesEnforcedRowsOfItsScopesAndFallsBackToTheEnforcedRow() {
        LimitTable table = new LimitTable(List.of(
                DEFAULT_24H,
                DEFAULT_7D,
                new LimitRow("CARD", "OUT", null, Window.LAST_24_HOURS, 50_000, 20),
                shadow(new LimitRow("*", "*", null, Window.LAST_24_HOURS, 10, 1)),
                shadow(new LimitRow("CARD", "*", null, Window.LAST_24_HOURS, 20, 2)),
                shadow(new LimitRow("CARD", "OUT", null, Window.LAST_7_DAYS, 40, 4)),
                shadow(new LimitRow("CARD", "OUT", ENTITY, Window.DAY, 300, 3))));

        Limits limits = table.limitsFor(CARD_OUT);

        // enforced: the shadow rows change nothing
        assertThat(limits.byWindow())
                .containsOnly(
                        Map.entry(Window.LAST_24_HOURS, new Limit(50_000L, 20L)),
                        Map.entry(Window.LAST_7_DAYS, new Limit(5_000_000L, 500L)));
        // shadow: the enforced CARD/OUT row is more specific than the CARD/* and */* shadow rows, so it
        // keeps 24h; the CARD/OUT shadow row beats the enforced */* row in 7d; day has a shadow row only
        assertThat(limits.shadow().byWindow())
                .containsOnly(
                        Map.entry(Window.LAST_24_HOURS, new Limit(50_000L, 20L)),
                        Map.entry(Window.LAST_7_DAYS, new Limit(40L, 4L)),
                        Map.entry(Window.DAY, new Limit(300L, 3L)));
        BusinessKey otherChannel = new BusinessKey(ENTITY, "ACH", Direction.OUT);
        assertThat(table.limitsFor(otherChannel).shadow().of(Window.LAST_24_HOURS))
                .as("the */* shadow row replaces the enforced */* row")
                .isEqualTo(new Limit(10L, 1L));
        assertThat(table.limitsFor(otherChannel).shadow().of(Window.LAST_7_DAYS))
                .as("a window without a shadow row keeps its enforced row")
                .isEqualTo(new Limit(5_000_000L, 500L));
        BusinessKey otherEntity = new BusinessKey(UUID.randomUUID(), "CARD", Direction.OUT);
        assertThat(table.limitsFor(otherEntity).shadow().of(Window.DAY)).isEqualTo(Limit.UNLIMITED);
    }

    @Test
    void aMoreSpecificEnforcedRowStillWinsOverALessSpecificShadowRow() {
        LimitTable table = new LimitTable(List.of(
                new LimitRow("CARD", "OUT", ENTITY, Window.LAST_24_HOURS, 50_000, 100),
                new LimitRow("CARD", "OUT", null, Window.LAST_24_HOURS, 1_000_000, 100),
                shadow(new LimitRow("CARD", "OUT", null, Window.LAST_24_HOURS, 2_000_000, 100))));
        Usage usage = new Usage(Map.of(Window.LAST_24_HOURS, new Tally(45_000, 1)));

        Limits limits = table.limitsFor(CARD_OUT);

        assertThat(LimitPolicy.decide(10_000, usage, limits)).isEqualTo(Outcome.rejectedFor(Reason.LIMIT_24H_AMOUNT));
        // after limits promote the entity's override still wins, so the shadow set keeps it
        assertThat(LimitPolicy.decideShadow(10_000, usage, limits))
                .as("the shadow outcome of the entity with an override")
                .isEqualTo(Outcome.rejectedFor(Reason.LIMIT_24H_AMOUNT));
        BusinessKey otherEntity = new BusinessKey(UUID.randomUUID(), "CARD", Direction.OUT);
        assertThat(table.limitsFor(otherEntity).shadow().of(Window.LAST_24_HOURS))
                .as("an entity without an override takes the shadow row")
                .isEqualTo(new Limit(2_000_000L, 100L));
    }

    @Test
    void aKeyNoShadowRowMatchesHasNoShadowSet() {
        LimitTable table =
                new LimitTable(List.of(DEFAULT_24H, shadow(new LimitRow("ACH", "IN", null, Window.MONTH, 10, 1))));

        assertThat(table.limitsFor(CARD_OUT).shadow()).isNull();
        assertThat(table.limitsFor(new BusinessKey(ENTITY, "ACH", Direction.IN)).shadow())
                .isNotNull();
        assertThat(table.windowsInUse()).containsExactlyInAnyOrder(Window.LAST_24_HOURS, Window.MONTH);
    }

    @Test
    void aTxnRowHasNoCount() {
        LimitTable table = new LimitTable(List.of(new LimitRow("*", "*", null, Window.TXN, 500, 7)));

        assertThat(table.limitsFor(CARD_OUT).of(Window.TXN)).isEqualTo(new Limit(500L, null));
    }

    @Test
    void rowsOfOneScopeNeverApplyAtAnotherScope() {
        LimitTable table = new LimitTable(List.of(
                scoped(Scope.KEY, "CARD", ENTITY, null, 1),
                scoped(Scope.ENTITY, "*", ENTITY, null, 2),
                scoped(Scope.ACCOUNT_CHANNEL, "CARD", null, ACCOUNT, 3),
                scoped(Scope.ACCOUNT, "*", null, ACCOUNT, 4)));

        for (ScopeKey key : COUNTED_AT) {
            long expected = key.scope().ordinal() + 1;
            assertThat(table.limitsFor(key).byWindow())
                    .as("the limits at the %s scope", key.scope().label())
                    .containsOnly(Map.entry(Window.LAST_24_HOURS, new Limit(expected, expected)));
        }
        // an owner id means nothing at a scope of the other kind of owner, even when the ids are equal
        ScopeKey accountNamedLikeTheEntity = new ScopeKey(Scope.ACCOUNT, ENTITY, "*", Direction.OUT);
        assertThat(table.limitsFor(accountNamedLikeTheEntity).byWindow()).isEmpty();
    }

    @Test
    void anAccountOverrideBeatsTheRowForEveryAccountAtItsScope() {
        LimitTable table = new LimitTable(List.of(
                scoped(Scope.ACCOUNT, "*", null, null, 100),
                scoped(Scope.ACCOUNT, "*", null, ACCOUNT, 7),
                scoped(Scope.ACCOUNT_CHANNEL, "*", null, null, 50),
                scoped(Scope.ACCOUNT_CHANNEL, "CARD", null, null, 40)));
        ScopeKey otherAccount = new ScopeKey(Scope.ACCOUNT, UUID.randomUUID(), "*", Direction.OUT);
        ScopeKey accountOnAch = new ScopeKey(Scope.ACCOUNT_CHANNEL, ACCOUNT, "ACH", Direction.OUT);

        assertThat(table.limitsFor(COUNTED_AT.get(3)).of(Window.LAST_24_HOURS)).isEqualTo(new Limit(7L, 7L));
        assertThat(table.limitsFor(otherAccount).of(Window.LAST_24_HOURS)).isEqualTo(new Limit(100L, 100L));
        assertThat(table.limitsFor(COUNTED_AT.get(2)).of(Window.LAST_24_HOURS))
                .as("the CARD row beats the * row at the account_channel scope")
                .isEqualTo(new Limit(40L, 40L));
        assertThat(table.limitsFor(accountOnAch).of(Window.LAST_24_HOURS))
                .as("a * row of the account_channel scope limits each channel apart")
                .isEqualTo(new Limit(50L, 50L));
    }

    @Test
    void shadowRowsReplaceEnforcedRowsWithinTheirOwnScopeOnly() {
        LimitTable table = new LimitTable(List.of(
                scoped(Scope.KEY, "CARD", null, null, 1_000),
                scoped(Scope.ENTITY, "*", ENTITY, null, 500),
                shadow(scoped(Scope.ENTITY, "*", null, null, 2_000)),
                scoped(Scope.ACCOUNT, "*", null, null, 800),
                shadow(scoped(Scope.ACCOUNT, "*", null, null, 300))));
        List<ScopeCheck> checks = COUNTED_AT.stream()
                .map(key -> new ScopeCheck(
                        key.scope(), new Usage(Map.of(Window.LAST_24_HOURS, new Tally(0, 0))), table.limitsFor(key)))
                .toList();

        assertThat(table.limitsFor(COUNTED_AT.get(0)).shadow())
                .as("no shadow row of the key scope")
                .isNull();
        assertThat(table.limitsFor(COUNTED_AT.get(1)).shadow().of(Window.LAST_24_HOURS))
                .as("the entity's enforced override is more specific than the entity scope's shadow row")
                .isEqualTo(new Limit(500L, 500L));
        assertThat(table.limitsFor(COUNTED_AT.get(3)).shadow().of(Window.LAST_24_HOURS))
                .isEqualTo(new Limit(300L, 300L));
        assertThat(LimitPolicy.decide(400, checks)).isEqualTo(Outcome.approved());
        assertThat(LimitPolicy.decideShadow(400, checks))
                .isEqualTo(Outcome.rejectedFor(Reason.ACCOUNT_LIMIT_24H_AMOUNT));
        assertThat(LimitPolicy.decideShadow(600, checks))
                .as("the scopes are checked in order, the entity's first")
                .isEqualTo(Outcome.rejectedFor(Reason.ENTITY_LIMIT_24H_AMOUNT));
    }

    @Test
    void keysOfOneShapeWithoutRowsOfTheirOwnShareTheirLimitsAndOthersDoNot() {
        LimitTable table = new LimitTable(List.of(
                DEFAULT_24H,
                new LimitRow("CARD", "OUT", null, Window.LAST_24_HOURS, 50_000, 20),
                scoped(Scope.ENTITY, "*", null, null, 70_000)));
        BusinessKey one = new BusinessKey(UUID.randomUUID(), "CARD", Direction.OUT);
        BusinessKey another = new BusinessKey(UUID.randomUUID(), "CARD", Direction.OUT);

        assertThat(table.limitsFor(another)).isSameAs(table.limitsFor(one));
        assertThat(table.limitsFor(new BusinessKey(one.entityId(), "ACH", Direction.OUT))
                        .of(Window.LAST_24_HOURS))
                .isEqualTo(new Limit(1_000_000L, 100L));
        assertThat(table.limitsFor(new BusinessKey(one.entityId(), "CARD", Direction.IN))
                        .of(Window.LAST_24_HOURS))
                .isEqualTo(new Limit(1_000_000L, 100L));
        assertThat(table.limitsFor(ScopeKey.countedAt(one, null).get(1)).of(Window.LAST_24_HOURS))
                .as("another scope of the same channel and direction")
                .isEqualTo(new Limit(70_000L, 70_000L));
    }

    @Test
    void anOwnerWithRowsOfItsOwnGetsThemAfterOthersOfItsShapeWereResolved() {
        LimitTable table = new LimitTable(List.of(
                new LimitRow("CARD", "OUT", null, Window.LAST_24_HOURS, 50_000, 20),
                new LimitRow("CARD", "OUT", ENTITY, Window.LAST_24_HOURS, 3_000, 5),
                shadow(scoped(Scope.ACCOUNT, "*", null, ACCOUNT, 300))));
        table.limitsFor(new BusinessKey(UUID.randomUUID(), "CARD", Direction.OUT));
        table.limitsFor(new ScopeKey(Scope.ACCOUNT, UUID.randomUUID(), "*", Direction.OUT));

        assertThat(table.limitsFor(CARD_OUT).of(Window.LAST_24_HOURS)).isEqualTo(new Limit(3_000L, 5L));
        assertThat(table.limitsFor(COUNTED_AT.get(3)).shadow().of(Window.LAST_24_HOURS))
                .as("an owner with a shadow row of its own only")
                .isEqualTo(new Limit(300L, 300L));
    }

    @Test
    void aTableOfChangedRowsResolvesAfreshWhatAnEarlierTableRemembered() {
        BusinessKey key = new BusinessKey(UUID.randomUUID(), "CARD", Direction.OUT);
        LimitTable before =
                new LimitTable(List.of(new LimitRow("CARD", "OUT", null, Window.LAST_24_HOURS, 50_000, 20)));
        LimitTable after = new LimitTable(List.of(new LimitRow("CARD", "OUT", null, Window.LAST_24_HOURS, 7_000, 3)));

        assertThat(before.limitsFor(key).of(Window.LAST_24_HOURS)).isEqualTo(new Limit(50_000L, 20L));
        assertThat(after.limitsFor(key).of(Window.LAST_24_HOURS))
                .as("a refresh of risk_limit is a new table: nothing remembered of the one before")
                .isEqualTo(new Limit(7_000L, 3L));
    }

    /** An enforced 24h row of the scope, direction OUT, whose amount and count are both limit. */
    private static LimitRow scoped(Scope scope, String channel, UUID entity, UUID account, long limit) {
        return new LimitRow(
                channel, "OUT", entity, Window.LAST_24_HOURS, limit, limit, LimitRow.Mode.ENFORCE, scope, account);
    }

    private static LimitRow shadow(LimitRow row) {
        return new LimitRow(
                row.channel(),
                row.direction(),
                row.entityId(),
                row.window(),
                row.maxAmount(),
                row.maxCount(),
                LimitRow.Mode.SHADOW,
                row.scope(),
                row.accountId());
    }
}
