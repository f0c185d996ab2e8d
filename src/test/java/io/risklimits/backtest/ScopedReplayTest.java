package io.risklimits.backtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.Reason;
import io.risklimits.decision.Scope;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.Window;
import io.risklimits.decision.WindowCalendar;
import io.risklimits.limits.LimitRow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Keys that share an entity or an account, replayed together in decision order under scope limits. */
class ScopedReplayTest {

    private static final UUID ACCOUNT = UUID.randomUUID();
    private static final BusinessKey CARD_OF_A = new BusinessKey(UUID.randomUUID(), "CARD", Direction.OUT);
    private static final BusinessKey WIRE_OF_A = new BusinessKey(CARD_OF_A.entityId(), "WIRE", Direction.OUT);
    private static final BusinessKey CARD_OF_B = new BusinessKey(UUID.randomUUID(), "CARD", Direction.OUT);
    private static final boolean BEFORE = false;
    private static final boolean INSIDE = true;
    private static final long HOUR = Instant.parse("2026-11-10T12:00:00Z").getEpochSecond() / 3600;

    private final List<ScopedRow> rows = new ArrayList<>();

    @Test
    void anotherEntitysApprovalUsesTheAccountsLimitAndAReleaseWithoutAnAccountGivesItBack() {
        UUID first = authorization(CARD_OF_A, ACCOUNT, Verdict.APPROVED, 600, HOUR, BEFORE);
        authorization(CARD_OF_B, ACCOUNT, Verdict.APPROVED, 500, HOUR + 1, INSIDE); // 600 + 500 > 1000 now
        reversal(CARD_OF_A, null, first, 600, HOUR + 2); // releases where its original was counted
        rows.add(new ScopedRow(
                CARD_OF_B,
                ACCOUNT,
                AuditRow.authorization(UUID.randomUUID(), Verdict.REJECTED, 900, HOUR + 3, INSIDE)
                        .storedFor(Reason.ACCOUNT_LIMIT_24H_AMOUNT))); // 0 + 900 fits now

        ScopeReport report = replay(accountRow(Scope.ACCOUNT, "*", Window.LAST_24_HOURS, 1000));

        assertThat(report.authorizations()).isEqualTo(2);
        assertThat(report.approvedToRejectedByReason())
                .isEqualTo(Map.of(Reason.ACCOUNT_LIMIT_24H_AMOUNT, new Change(1, 500)));
        assertThat(report.rejectedToApprovedByReason())
                .isEqualTo(Map.of(Reason.ACCOUNT_LIMIT_24H_AMOUNT, new Change(1, 900)));
        assertThat(report.keys()).isEqualTo(2);
    }

    @Test
    void anEntityLimitAddsUpItsChannelsAndIgnoresOtherEntitiesOfTheAccount() {
        authorization(CARD_OF_A, ACCOUNT, Verdict.APPROVED, 700, HOUR, INSIDE);
        authorization(CARD_OF_B, ACCOUNT, Verdict.APPROVED, 700, HOUR, INSIDE); // another entity: fits
        authorization(WIRE_OF_A, null, Verdict.APPROVED, 400, HOUR + 1, INSIDE); // 700 + 400 > 1000 at A

        ScopeReport report = replay(new LimitRow(
                "*", "OUT", null, Window.LAST_24_HOURS, 1000, 100, LimitRow.Mode.ENFORCE, Scope.ENTITY, null));

        assertThat(report.approvedToRejectedByReason())
                .isEqualTo(Map.of(Reason.ENTITY_LIMIT_24H_AMOUNT, new Change(1, 400)));
        assertThat(report.rejectedToApproved()).isEqualTo(Change.NONE);
    }

    @Test
    void anAccountChannelLimitSeesOnlyTheEventsThatCarriedTheAccountOnThatChannel() {
        authorization(CARD_OF_A, null, Verdict.APPROVED, 900, HOUR, BEFORE); // no account: not counted there
        authorization(WIRE_OF_A, ACCOUNT, Verdict.APPROVED, 900, HOUR, BEFORE); // another channel
        authorization(CARD_OF_B, ACCOUNT, Verdict.APPROVED, 600, HOUR + 1, INSIDE); // 0 + 600 fits
        authorization(CARD_OF_A, ACCOUNT, Verdict.APPROVED, 500, HOUR + 2, INSIDE); // 600 + 500 > 1000

        ScopeReport report = replay(accountRow(Scope.ACCOUNT_CHANNEL, "CARD", Window.LAST_24_HOURS, 1000));

        assertThat(report.approvedToRejectedByReason())
                .isEqualTo(Map.of(Reason.ACCOUNT_CHANNEL_LIMIT_24H_AMOUNT, new Change(1, 500)));
    }

    @Test
    void aCaptureWithoutAnAccountCountsItsExcessAtTheAccountItsHoldWasCountedAt() {
        Instant noon = Instant.ofEpochSecond(HOUR * 3600).plusSeconds(600);
        UUID hold = hold(CARD_OF_A, ACCOUNT, 500, noon, noon.plus(Duration.ofDays(7)), BEFORE);
        rows.add(new ScopedRow(
                CARD_OF_A,
                null,
                AuditRow.capture(UUID.randomUUID(), 800, hold, true, noon.plus(Duration.ofHours(1)), INSIDE)));
        rows.add(new ScopedRow(
                CARD_OF_B,
                ACCOUNT,
                AuditRow.authorization(
                        UUID.randomUUID(), Verdict.APPROVED, 300, noon.plus(Duration.ofHours(2)), null, INSIDE)));

        ScopeReport report = replay(accountRow(Scope.ACCOUNT, "*", Window.LAST_24_HOURS, 1000));

        assertThat(report.approvedToRejectedByReason())
                .isEqualTo(Map.of(Reason.ACCOUNT_LIMIT_24H_AMOUNT, new Change(1, 300))); // 800 + 300 > 1000
        assertThat(report.reversals()).isZero();
    }

    @Test
    void anIncrementIsCheckedAtTheAccountOfItsHoldAndAnExpiryGivesBackThere() {
        Instant noon = Instant.ofEpochSecond(HOUR * 3600).plusSeconds(600);
        Instant expiresAt = noon.plus(Duration.ofHours(2));
        UUID hold = hold(CARD_OF_A, ACCOUNT, 400, noon, expiresAt, BEFORE);
        rows.add(new ScopedRow(
                CARD_OF_B,
                ACCOUNT,
                AuditRow.authorization(
                        UUID.randomUUID(), Verdict.APPROVED, 500, noon.plus(Duration.ofMinutes(30)), null, INSIDE)));
        rows.add(new ScopedRow(
                CARD_OF_A,
                null,
                AuditRow.increment(
                        UUID.randomUUID(),
                        Verdict.APPROVED,
                        300,
                        hold,
                        null,
                        noon.plus(Duration.ofHours(1)),
                        INSIDE))); // 400 + 500 + 300 > 1000 at the account
        rows.add(new ScopedRow(
                CARD_OF_A,
                ACCOUNT,
                AuditRow.expiry(UUID.randomUUID(), 400, hold, expiresAt, expiresAt.plusSeconds(20), INSIDE)));
        rows.add(new ScopedRow(
                CARD_OF_B,
                ACCOUNT,
                AuditRow.authorization(
                                UUID.randomUUID(), Verdict.REJECTED, 500, noon.plus(Duration.ofHours(3)), null, INSIDE)
                        .storedFor(Reason.ACCOUNT_LIMIT_24H_AMOUNT))); // 500 + 500 fits once the 400 expired

        ScopeReport report = replay(accountRow(Scope.ACCOUNT, "*", Window.LAST_24_HOURS, 1000));

        assertThat(report.approvedToRejectedByReason())
                .isEqualTo(Map.of(Reason.ACCOUNT_LIMIT_24H_AMOUNT, new Change(1, 300)));
        assertThat(report.rejectedToApprovedByReason())
                .isEqualTo(Map.of(Reason.ACCOUNT_LIMIT_24H_AMOUNT, new Change(1, 500)));
        assertThat(report.authorizations()).isEqualTo(3);
    }

    private ScopeReport replay(LimitRow... limitRows) {
        ProposedLimits limits = new ProposedLimits(List.of(limitRows));
        ScopeReport totals = ScopeReport.empty(null);
        for (ScopeReport report : ScopedReplay.replay(rows, limits, new WindowStartHours(WindowCalendar.UTC))) {
            totals = totals.plus(report);
        }
        return totals;
    }

    private static LimitRow accountRow(Scope scope, String channel, Window window, long maxAmount) {
        return new LimitRow(channel, "OUT", null, window, maxAmount, 100, LimitRow.Mode.ENFORCE, scope, null);
    }

    private UUID authorization(
            BusinessKey key, UUID account, Verdict stored, long amount, long bucketHour, boolean inPeriod) {
        UUID id = UUID.randomUUID();
        rows.add(new ScopedRow(key, account, AuditRow.authorization(id, stored, amount, bucketHour, inPeriod)));
        return id;
    }

    private UUID hold(
            BusinessKey key, UUID account, long amount, Instant decidedAt, Instant expiresAt, boolean inPeriod) {
        UUID id = UUID.randomUUID();
        rows.add(new ScopedRow(
                key, account, AuditRow.authorization(id, Verdict.APPROVED, amount, decidedAt, expiresAt, inPeriod)));
        return id;
    }

    private void reversal(BusinessKey key, UUID account, UUID original, long amount, long bucketHour) {
        rows.add(new ScopedRow(
                key,
                account,
                AuditRow.reversal(
                        UUID.randomUUID(), Verdict.RELEASED, amount, original, amount, 1, bucketHour, INSIDE)));
    }
}
