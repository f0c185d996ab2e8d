package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.DecisionJson;
import io.risklimits.decision.Limit;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Reason;
import io.risklimits.decision.Tally;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.Window;
import io.risklimits.support.DecisionSchema;
import io.risklimits.support.NoRowsLeftBehind;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A key whose buckets add up past what a long holds (each bucket fits, the running totals are numeric)
 * must still get a decision, and so must the events of other keys in its batch: its usage is capped at
 * Long.MAX_VALUE, which no window admits more to, limited or not.
 */
@ExtendWith(NoRowsLeftBehind.class)
class UsagePastTheLongRangeIT {

    private static final Instant NOW = Instant.parse("2030-06-04T12:30:00Z");
    private static final long NINE_QUINTILLION = 9_000_000_000_000_000_000L;

    private final SetDatabaseClock databaseClock = new SetDatabaseClock(NOW);
    private final JdbcTemplate db = new JdbcTemplate(databaseClock.dataSource());
    private final BatchDecisionStore store =
            TestStores.batchDecisionStore(databaseClock.dataSource(), databaseClock.clock());
    private final TestKeys ownKeys = databaseClock.keys();

    @AfterEach
    void deleteTheKeysRowsAndTheClock() {
        databaseClock.close();
    }

    @Test
    void withoutAnyLimitTheKeyIsRejectedAndTheNextKeyInTheBatchIsDecided() {
        BusinessKey huge = keyWithThreeHoursOfNineQuintillion();
        BusinessKey other = newKey();

        List<Decision> decisions =
                store.decideAll(List.of(authorization(huge, 100), authorization(other, 100)), anyKey -> Limits.NONE);

        assertThat(decisions.get(0).verdict()).isEqualTo(Verdict.REJECTED);
        assertThat(decisions.get(0).reason()).isEqualTo(Reason.LIMIT_24H_AMOUNT);
        assertThat(decisions.get(0).usage().of(Window.LAST_24_HOURS)).isEqualTo(new Tally(Long.MAX_VALUE, 3));
        assertThat(decisions.get(1).verdict()).isEqualTo(Verdict.APPROVED);
        decisions.forEach(decision -> DecisionSchema.assertValidDecision(DecisionJson.message(decision)));
    }

    @Test
    void theUsagePublishedForAWindowPastTheLongRangeIsCappedAtItsLargestValue() {
        BusinessKey huge = keyWithThreeHoursOfNineQuintillion();
        BusinessKey other = newKey();
        Limits seeded = new Limits(Map.of(
                Window.LAST_24_HOURS, new Limit(1_000_000L, 100L),
                Window.LAST_7_DAYS, new Limit(5_000_000L, 500L),
                Window.LAST_30_DAYS, new Limit(20_000_000L, 2_000L)));

        List<Decision> decisions =
                store.decideAll(List.of(authorization(huge, 100), authorization(other, 100)), anyKey -> seeded);

        assertThat(decisions.get(0).verdict()).isEqualTo(Verdict.REJECTED);
        assertThat(decisions.get(0).reason()).isEqualTo(Reason.LIMIT_24H_AMOUNT);
        assertThat(new String(DecisionJson.message(decisions.get(0))))
                .contains("\"24h\":{\"amount\":9223372036854775807,\"count\":3}");
        assertThat(decisions.get(1).verdict()).isEqualTo(Verdict.APPROVED);
        decisions.forEach(decision -> DecisionSchema.assertValidDecision(DecisionJson.message(decision)));
    }

    private BusinessKey keyWithThreeHoursOfNineQuintillion() {
        BusinessKey key = newKey();
        LocalDateTime hour = LocalDateTime.ofInstant(NOW, ZoneOffset.UTC).withMinute(0);
        for (int hoursAgo = 1; hoursAgo <= 3; hoursAgo++) {
            BucketRows.add(db, key, hour.minusHours(hoursAgo), NINE_QUINTILLION);
        }
        return key;
    }

    private BusinessKey newKey() {
        return ownKeys.newKey();
    }

    private static TransactionEvent authorization(BusinessKey key, long amount) {
        return new TransactionEvent(UUID.randomUUID(), key, amount, "USD", NOW);
    }
}
