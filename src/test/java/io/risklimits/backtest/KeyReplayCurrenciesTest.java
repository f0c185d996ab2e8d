package io.risklimits.backtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.EventType;
import io.risklimits.decision.Reason;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.Window;
import io.risklimits.decision.WindowCalendar;
import io.risklimits.limits.LimitRow;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A decision whose amount could not be counted in the limit currency stays rejected in a replay. */
class KeyReplayCurrenciesTest {

    private static final BusinessKey KEY = new BusinessKey(UUID.randomUUID(), "ACH", Direction.OUT);
    private static final long HOUR = Instant.parse("2026-11-10T12:00:00Z").getEpochSecond() / 3600;

    @Test
    void anAuthorizationRejectedForWantOfARateIsRejectedAgainWhateverTheProposedLimits() {
        List<AuditRow> rows = List.of(refused(Reason.NO_FX_RATE), refused(Reason.FX_RATE_STALE));
        Backtest backtest = new Backtest(
                new ProposedLimits(List.of(new LimitRow("ACH", "OUT", null, Window.LAST_24_HOURS, 1_000_000, 100))),
                WindowCalendar.UTC);

        backtest.replay(new KeyHistory(KEY, rows));

        ScopeReport report = backtest.report().totals();
        assertThat(report.authorizations()).isEqualTo(2);
        assertThat(report.rejectedToApproved()).isEqualTo(new Change(0, 0));
    }

    private static AuditRow refused(Reason reason) {
        return new AuditRow(
                UUID.randomUUID(),
                EventType.AUTHORIZATION,
                Verdict.REJECTED,
                500,
                null,
                0,
                0,
                HOUR,
                true,
                reason,
                Instant.ofEpochSecond(HOUR * 3600),
                null,
                null,
                null,
                false,
                0,
                0);
    }
}
