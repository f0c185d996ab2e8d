package io.risklimits.backtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.Reason;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.Window;
import io.risklimits.decision.WindowCalendar;
import io.risklimits.limits.LimitRow;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Small hand-made histories replayed under proposed limits, each with the flips it must give. */
class KeyReplayTest {

    private static final BusinessKey KEY = new BusinessKey(UUID.randomUUID(), "CARD", Direction.OUT);
    private static final boolean BEFORE = false;
    private static final boolean INSIDE = true;

    private final List<AuditRow> rows = new ArrayList<>();

    @Test
    void usageFromBeforeThePeriodFlipsAnApprovalToRejectedAndARejectionToApproved() {
        long hour = hour("2026-11-10T12:00:00Z");
        authorization(Verdict.APPROVED, 600, hour, BEFORE);
        authorization(Verdict.APPROVED, 500, hour + 1, INSIDE); // 600 + 500 > 1000 now
        authorization(Verdict.REJECTED, 300, hour + 2, INSIDE); // 600 + 300 fits now

        ScopeReport report = replay(List.of(row("CARD", "OUT", null, Window.LAST_24_HOURS, 1000, 100)), UTC());

        assertThat(report.authorizations()).isEqualTo(2);
        assertThat(report.approvedToRejected()).isEqualTo(new Change(1, 500));
        assertThat(report.approvedToRejectedByReason()).isEqualTo(Map.of(Reason.LIMIT_24H_AMOUNT, new Change(1, 500)));
        assertThat(report.rejectedToApproved()).isEqualTo(new Change(1, 300));
    }

    @Test
    void aReversalWhoseOriginalFlipsToRejectedReleasesNothingAndAStoredOriginalStillReleases() {
        long hour = hour("2026-11-10T12:00:00Z");
        UUID before = authorization(Verdict.APPROVED, 300, hour, BEFORE);
        UUID flipped = authorization(Verdict.APPROVED, 500, hour + 1, INSIDE); // over the txn cap of 400 now
        reversal(Verdict.RELEASED, 200, flipped, 200, 0, hour + 1, INSIDE); // its original is rejected now
        authorization(Verdict.APPROVED, 300, hour + 2, INSIDE); // 300 + 300 fits: the 500 is not counted
        reversal(Verdict.RELEASED, 300, before, 300, 1, hour + 3, INSIDE); // gives back the 300 from before
        authorization(Verdict.REJECTED, 300, hour + 3, INSIDE); // 300 + 300 fits after that release

        ScopeReport report = replay(
                List.of(
                        row("CARD", "OUT", null, Window.TXN, 400, 0),
                        row("CARD", "OUT", null, Window.LAST_24_HOURS, 600, 100)),
                UTC());

        assertThat(report.approvedToRejected()).isEqualTo(new Change(1, 500));
        assertThat(report.approvedToRejectedByReason()).containsOnlyKeys(Reason.LIMIT_TXN_AMOUNT);
        assertThat(report.reversals()).isEqualTo(2);
        assertThat(report.releasedToRejected()).isEqualTo(new Change(1, 200));
        assertThat(report.rejectedToApproved()).isEqualTo(new Change(1, 300));
        assertThat(report.rejectedToReleased()).isEqualTo(Change.NONE);
    }

    @Test
    void aReleaseWhoseOriginalWasArchivedIsReportedApartAndIsNoFlip() {
        long hour = hour("2026-11-10T12:00:00Z");
        UUID archived = UUID.randomUUID(); // released when decided, then deleted past retention: not in the log
        UUID kept = authorization(Verdict.APPROVED, 300, hour, BEFORE);
        reversal(Verdict.RELEASED, 200, archived, 200, 1, hour + 1, INSIDE);
        reversal(Verdict.RELEASED, 100, kept, 100, 0, hour + 1, INSIDE);

        ScopeReport report = replay(List.of(row("CARD", "OUT", null, Window.LAST_24_HOURS, 1000, 100)), UTC());

        assertThat(report.originalArchived()).isEqualTo(new Change(1, 200));
        assertThat(report.reversals()).isEqualTo(1);
        assertThat(report.releasedToRejected()).isEqualTo(Change.NONE);
        assertThat(report.rejectedToReleased()).isEqualTo(Change.NONE);
    }

    @Test
    void aReleaseBeforeThePeriodIsAppliedAsStored() {
        long hour = hour("2026-11-10T12:00:00Z");
        UUID original = authorization(Verdict.APPROVED, 800, hour, BEFORE);
        reversal(Verdict.RELEASED, 500, original, 500, 0, hour + 1, BEFORE);
        authorization(Verdict.APPROVED, 600, hour + 2, INSIDE); // 300 + 600 fits

        ScopeReport report = replay(List.of(row("*", "*", null, Window.LAST_24_HOURS, 1000, 100)), UTC());

        assertThat(report.flips()).isZero();
        assertThat(report.authorizations()).isEqualTo(1);
    }

    @Test
    void theTwentyFourHourWindowHoldsTheTwentyFourBucketsEndingWithTheCurrentOne() {
        long hour = hour("2026-11-10T12:00:00Z");
        authorization(Verdict.APPROVED, 800, hour, BEFORE);
        authorization(Verdict.APPROVED, 300, hour + 23, INSIDE); // still sees the 800
        authorization(Verdict.APPROVED, 300, hour + 24, INSIDE); // the 800 is out of the window

        ScopeReport report = replay(List.of(row("CARD", "*", null, Window.LAST_24_HOURS, 1000, 100)), UTC());

        assertThat(report.approvedToRejected()).isEqualTo(new Change(1, 300));
        assertThat(report.rejectedToApproved()).isEqualTo(Change.NONE);
    }

    @Test
    void aCalendarDayInNewYorkHasTwentyFiveHoursOnTheDayDaylightSavingEnds() {
        // 2026-11-01 in New York runs from 04:00Z (EDT) to 05:00Z the next day (EST)
        authorization(Verdict.APPROVED, 800, hour("2026-11-01T04:00:00Z"), BEFORE);
        authorization(Verdict.APPROVED, 300, hour("2026-11-02T04:00:00Z"), INSIDE); // 23:00 on Nov 1 there
        authorization(Verdict.APPROVED, 300, hour("2026-11-02T05:00:00Z"), INSIDE); // midnight of Nov 2
        List<LimitRow> dayLimit = List.of(row("CARD", "OUT", KEY.entityId(), Window.DAY, 1000, 100));

        ScopeReport newYork = replay(dayLimit, new WindowCalendar(ZoneId.of("America/New_York")));
        ScopeReport utc = replay(dayLimit, UTC());

        assertThat(newYork.approvedToRejected()).isEqualTo(new Change(1, 300));
        assertThat(newYork.approvedToRejectedByReason()).containsOnlyKeys(Reason.LIMIT_DAY_AMOUNT);
        assertThat(utc.flips()).isZero();
    }

    @Test
    void aCountLimitCountsApprovalsLessFullReleases() {
        long hour = hour("2026-11-10T12:00:00Z");
        UUID first = authorization(Verdict.APPROVED, 100, hour, BEFORE);
        authorization(Verdict.APPROVED, 100, hour, BEFORE);
        reversal(Verdict.RELEASED, 40, first, 40, 0, hour + 1, INSIDE); // the count stays
        authorization(Verdict.APPROVED, 100, hour + 1, INSIDE); // a third: over the count of 2
        reversal(Verdict.RELEASED, 60, first, 60, 1, hour + 2, INSIDE); // nothing remains: count drops
        authorization(Verdict.REJECTED, 100, hour + 2, INSIDE); // a second again: fits

        ScopeReport report = replay(List.of(row("CARD", "OUT", null, Window.LAST_7_DAYS, 10_000, 2)), UTC());

        assertThat(report.approvedToRejectedByReason()).isEqualTo(Map.of(Reason.LIMIT_7D_COUNT, new Change(1, 100)));
        assertThat(report.rejectedToApproved()).isEqualTo(new Change(1, 100));
        assertThat(report.releasedToRejected()).isEqualTo(Change.NONE);
    }

    @Test
    void aCaptureOverItsHoldIsCountedAnewInItsHourAndNeverFlips() {
        Instant noon = Instant.parse("2026-11-10T12:10:00Z");
        UUID hold = hold(Verdict.APPROVED, 500, noon, noon.plus(Duration.ofDays(7)), BEFORE);
        capture(700, hold, true, noon.plus(Duration.ofHours(1)), INSIDE); // 200 over what was held
        authorization(Verdict.APPROVED, 400, noon.plus(Duration.ofHours(2)), null, INSIDE); // 700 + 400 > 1000 now

        ScopeReport report = replay(List.of(row("CARD", "OUT", null, Window.LAST_24_HOURS, 1000, 100)), UTC());

        assertThat(report.approvedToRejected()).isEqualTo(new Change(1, 400));
        assertThat(report.authorizations()).isEqualTo(1);
        assertThat(report.reversals()).isZero();
    }

    @Test
    void anIncrementFlipsToRejectedUnderATighterTxnCapAndThenCountsNothing() {
        Instant noon = Instant.parse("2026-11-10T12:10:00Z");
        UUID hold = hold(Verdict.APPROVED, 300, noon, noon.plus(Duration.ofDays(7)), BEFORE);
        increment(Verdict.APPROVED, 200, hold, null, noon.plus(Duration.ofHours(1)), INSIDE); // 300 + 200 > 450
        rows.add(AuditRow.authorization(
                        UUID.randomUUID(), Verdict.REJECTED, 400, noon.plus(Duration.ofHours(2)), null, INSIDE)
                .storedFor(Reason.LIMIT_24H_AMOUNT)); // 300 + 400 fits once the increment is not counted

        ScopeReport report = replay(
                List.of(
                        row("CARD", "OUT", null, Window.TXN, 450, 0),
                        row("CARD", "OUT", null, Window.LAST_24_HOURS, 800, 100)),
                UTC());

        assertThat(report.authorizations()).isEqualTo(2);
        assertThat(report.approvedToRejectedByReason()).isEqualTo(Map.of(Reason.LIMIT_TXN_AMOUNT, new Change(1, 200)));
        assertThat(report.rejectedToApprovedByReason()).isEqualTo(Map.of(Reason.LIMIT_24H_AMOUNT, new Change(1, 400)));
        assertThat(report.reversals()).isZero();
    }

    @Test
    void anExpiryAtItsRecordedTimeFreesLimitForALaterAuthorization() {
        Instant noon = Instant.parse("2026-11-10T12:10:00Z");
        Instant expiresAt = noon.plus(Duration.ofHours(2));
        UUID hold = hold(Verdict.APPROVED, 700, noon, expiresAt, BEFORE);
        authorization(Verdict.APPROVED, 500, noon.plus(Duration.ofHours(1)), null, INSIDE); // 700 + 500 > 1000 now
        rows.add(AuditRow.expiry(UUID.randomUUID(), 700, hold, expiresAt, expiresAt.plusSeconds(30), INSIDE));
        authorization(Verdict.APPROVED, 500, noon.plus(Duration.ofHours(3)), null, INSIDE); // the 700 expired

        ScopeReport report = replay(List.of(row("CARD", "OUT", null, Window.LAST_24_HOURS, 1000, 100)), UTC());

        assertThat(report.approvedToRejected()).isEqualTo(new Change(1, 500));
        assertThat(report.authorizations()).isEqualTo(2);
        assertThat(report.reversals()).isZero();
    }

    @Test
    void aReplayedHoldWhoseIncrementFlipsExpiresAtItsOwnExpiryBeforeALaterDecision() {
        Instant noon = Instant.parse("2026-11-10T12:10:00Z");
        UUID hold = hold(Verdict.APPROVED, 300, noon, noon.plus(Duration.ofHours(2)), INSIDE);
        // approved when decided, it moved the expiry past the period; rejected now, the hold expires at 14:10
        increment(Verdict.APPROVED, 500, hold, noon.plus(Duration.ofDays(2)), noon.plus(Duration.ofHours(1)), INSIDE);
        rows.add(AuditRow.authorization(
                        UUID.randomUUID(), Verdict.REJECTED, 600, noon.plus(Duration.ofHours(3)), null, INSIDE)
                .storedFor(Reason.LIMIT_24H_AMOUNT)); // 300 + 600 > 800: fits once the hold expired

        ScopeReport report = replay(
                List.of(
                        row("CARD", "OUT", null, Window.TXN, 700, 0),
                        row("CARD", "OUT", null, Window.LAST_24_HOURS, 800, 100)),
                UTC());

        assertThat(report.approvedToRejectedByReason()).isEqualTo(Map.of(Reason.LIMIT_TXN_AMOUNT, new Change(1, 500)));
        assertThat(report.rejectedToApproved()).isEqualTo(new Change(1, 600));
    }

    @Test
    void aReversalReleasesAllAnIncrementedHoldCountsAndALaterCaptureOfItIsCountedAnew() {
        Instant noon = Instant.parse("2026-11-10T12:10:00Z");
        Instant expiresAt = noon.plus(Duration.ofHours(3));
        UUID hold = hold(Verdict.APPROVED, 400, noon, expiresAt, BEFORE);
        increment(Verdict.APPROVED, 300, hold, null, noon.plus(Duration.ofHours(1)), INSIDE);
        reversal(Verdict.RELEASED, 700, hold, 700, 1, hourOf(noon) + 2, INSIDE); // all of it: the count leaves
        authorization(Verdict.REJECTED, 900, noon.plus(Duration.ofHours(2)).plusSeconds(60), null, INSIDE);
        rows.add(AuditRow.expiry(UUID.randomUUID(), 400, hold, expiresAt, expiresAt.plusSeconds(5), INSIDE));
        capture(400, hold, true, noon.plus(Duration.ofHours(4)), INSIDE); // the hold is closed: counted anew
        authorization(Verdict.APPROVED, 700, noon.plus(Duration.ofHours(5)), null, INSIDE); // 900 + 400 + 700

        ScopeReport report = replay(List.of(row("CARD", "OUT", null, Window.LAST_24_HOURS, 2000, 2)), UTC());

        assertThat(report.rejectedToApproved()).isEqualTo(new Change(1, 900));
        assertThat(report.approvedToRejectedByReason()).isEqualTo(Map.of(Reason.LIMIT_24H_COUNT, new Change(1, 700)));
        assertThat(report.reversals()).isEqualTo(1);
        assertThat(report.releasedToRejected()).isEqualTo(Change.NONE);
    }

    @Test
    void keysAreReportedUnderTheMostSpecificMatchingRowAndUnmatchedKeysAsUnlimited() {
        UUID entity = UUID.randomUUID();
        ProposedLimits limits = new ProposedLimits(List.of(
                row("*", "*", null, Window.LAST_30_DAYS, 1000, 10),
                row("CARD", "OUT", null, Window.LAST_24_HOURS, 1000, 10),
                row("CARD", "*", entity, Window.DAY, 1000, 10),
                row("ACH", "IN", null, Window.TXN, 1000, 0)));

        assertThat(limits.scopeOf(new BusinessKey(entity, "CARD", Direction.OUT)))
                .isEqualTo(new Scope("CARD", "*", entity));
        assertThat(limits.scopeOf(new BusinessKey(UUID.randomUUID(), "CARD", Direction.OUT)))
                .isEqualTo(new Scope("CARD", "OUT", null));
        assertThat(limits.scopeOf(new BusinessKey(UUID.randomUUID(), "WIRE", Direction.IN)))
                .isEqualTo(new Scope("*", "*", null));
        assertThat(new ProposedLimits(List.of(row("ACH", "IN", null, Window.TXN, 1000, 0)))
                        .scopeOf(new BusinessKey(entity, "CARD", Direction.OUT)))
                .isEqualTo(Scope.UNLIMITED);
    }

    private ScopeReport replay(List<LimitRow> limitRows, WindowCalendar calendar) {
        Backtest backtest = new Backtest(new ProposedLimits(limitRows), calendar);
        backtest.replay(new KeyHistory(KEY, rows));
        return backtest.report().totals();
    }

    private UUID authorization(Verdict stored, long amount, long bucketHour, boolean inPeriod) {
        UUID id = UUID.randomUUID();
        rows.add(AuditRow.authorization(id, stored, amount, bucketHour, inPeriod));
        return id;
    }

    private UUID authorization(
            Verdict stored, long amount, Instant decidedAt, Instant holdExpiresAt, boolean inPeriod) {
        UUID id = UUID.randomUUID();
        rows.add(AuditRow.authorization(id, stored, amount, decidedAt, holdExpiresAt, inPeriod));
        return id;
    }

    private UUID hold(Verdict stored, long amount, Instant decidedAt, Instant expiresAt, boolean inPeriod) {
        return authorization(stored, amount, decidedAt, expiresAt, inPeriod);
    }

    private void capture(long amount, UUID original, boolean isFinal, Instant decidedAt, boolean inPeriod) {
        rows.add(AuditRow.capture(UUID.randomUUID(), amount, original, isFinal, decidedAt, inPeriod));
    }

    private void increment(
            Verdict stored, long amount, UUID original, Instant askedExpiry, Instant decidedAt, boolean inPeriod) {
        rows.add(AuditRow.increment(UUID.randomUUID(), stored, amount, original, askedExpiry, decidedAt, inPeriod));
    }

    private void reversal(
            Verdict stored,
            long amount,
            UUID original,
            long releasedAmount,
            int releasedCount,
            long bucketHour,
            boolean inPeriod) {
        rows.add(AuditRow.reversal(
                UUID.randomUUID(), stored, amount, original, releasedAmount, releasedCount, bucketHour, inPeriod));
    }

    private static LimitRow row(
            String channel, String direction, UUID entity, Window window, long maxAmount, long maxCount) {
        return new LimitRow(channel, direction, entity, window, maxAmount, maxCount);
    }

    private static long hourOf(Instant instant) {
        return instant.getEpochSecond() / 3600;
    }

    private static long hour(String instant) {
        return Instant.parse(instant).getEpochSecond() / 3600;
    }

    private static WindowCalendar UTC() {
        return WindowCalendar.UTC;
    }
}
