package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.Limit;
import io.risklimits.decision.Limits;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Tally;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.Window;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.TestInfrastructure;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A key's bucket of this hour added by a writer that does not take the key's lock (an operator's
 * backfill through the running-totals triggers), after a batch read the key's buckets and before it
 * wrote them. The batch adds a key's first bucket of the hour with a plain insert, which then fails on
 * the primary key; the batch is decided again with its reads made afresh, and finds that bucket as the
 * key's latest. The database clock is set, so each step happens at its hour whenever the test runs.
 */
@ExtendWith(NoRowsLeftBehind.class)
class BucketAddedBehindTheLockIT {

    private static final Instant NOW = Instant.parse("2030-06-04T10:20:00Z");
    private static final Instant HOUR = NOW.truncatedTo(ChronoUnit.HOURS);
    private static final Limits LIMITS = new Limits(Map.of(Window.LAST_24_HOURS, new Limit(1_000_000L, 100L)));

    private final SetDatabaseClock databaseClock = new SetDatabaseClock(NOW.minus(Duration.ofHours(1)));
    private final BatchDecisionStore store =
            TestStores.batchDecisionStore(databaseClock.dataSource(), databaseClock.clock());
    private final SummedUsage summed = new SummedUsage(databaseClock.dataSource());
    // another session, outside the batch's transaction and its locks
    private final JdbcTemplate outside =
            new JdbcTemplate(TestInfrastructure.get().dataSource());

    @AfterEach
    void deleteTheKeysRowsAndTheClock() {
        databaseClock.close();
    }

    @Test
    void theBatchIsDecidedAgainAndCountsOnTopOfThatBucket() {
        BusinessKey key = databaseClock.keys().newKey();
        assertThat(decide(authorization(key, 1_000), anyKey -> LIMITS).verdict())
                .isEqualTo(Verdict.APPROVED);
        databaseClock.set(NOW);

        AtomicInteger limitLookups = new AtomicInteger();
        TransactionEvent event = authorization(key, 300);
        Decision decision = decide(event, anyKey -> {
            // the limits are looked up after the reads, before the writes: the first time, the outside
            // writer adds the key's bucket of this hour, 50 in one transaction
            if (limitLookups.getAndIncrement() == 0) {
                BucketRows.add(outside, key, LocalDateTime.ofInstant(HOUR, ZoneOffset.UTC), 50);
            }
            return LIMITS;
        });

        assertThat(decision.verdict()).isEqualTo(Verdict.APPROVED);
        assertThat(decision.usage().of(Window.LAST_24_HOURS))
                .as("the usage the decision was made on, read again after the outside write")
                .isEqualTo(new Tally(1_050, 2));
        assertThat(outside.queryForList(
                        """
                        SELECT sum_amount, tx_count, running_amount, running_count
                        FROM risk_hourly_agg
                        WHERE entity_id = ? AND channel_code = ? AND direction_code = ? AND bucket_ts = ?
                        """,
                        key.entityId(),
                        key.channel(),
                        key.direction().name(),
                        LocalDateTime.ofInstant(HOUR, ZoneOffset.UTC)))
                .as("this hour's one bucket: the outside write's and the authorization's")
                .singleElement()
                .satisfies(row -> {
                    assertThat(((Number) row.get("sum_amount")).longValue()).isEqualTo(350);
                    assertThat(((Number) row.get("tx_count")).longValue()).isEqualTo(2);
                    assertThat(((Number) row.get("running_amount")).longValue()).isEqualTo(1_350);
                    assertThat(((Number) row.get("running_count")).longValue()).isEqualTo(3);
                });
        assertThat(summed.usageUpTo(key, HOUR).of(Window.LAST_24_HOURS)).isEqualTo(new Tally(1_350, 3));
        assertThat(outside.queryForObject(
                        "SELECT count(*) FROM risk_request_log WHERE dedupe_id = ?", Long.class, event.dedupeId()))
                .as("the authorization's audit rows")
                .isEqualTo(1);
    }

    private Decision decide(TransactionEvent event, Function<ScopeKey, Limits> limitsOf) {
        return store.decideAll(List.of(event), limitsOf).get(0);
    }

    private TransactionEvent authorization(BusinessKey key, long amount) {
        return new TransactionEvent(
                UUID.randomUUID(), key, amount, "USD", databaseClock.clock().instant());
    }
}
