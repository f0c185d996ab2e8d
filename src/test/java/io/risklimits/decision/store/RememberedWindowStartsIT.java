package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Tally;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Window;
import io.risklimits.decision.WindowCalendar;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.TestInfrastructure;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The batched decider remembers each key's running totals before its windows for the hour
 * (WindowStartsCache), for keys with a bucket in the last 24 hours. The usage it computes from them
 * must stay that of a full read while other writers (other instances, the archiver) change the key's
 * buckets within the hour.
 */
@ExtendWith(NoRowsLeftBehind.class)
class RememberedWindowStartsIT {

    private static final LocalDateTime NOW_HOUR = LocalDateTime.of(2026, 3, 1, 12, 0);
    private static final Instant BUCKET = NOW_HOUR.toInstant(ZoneOffset.UTC);

    private final DataSource dataSource = TestInfrastructure.get().dataSource();
    private final JdbcTemplate db = new JdbcTemplate(dataSource);
    private final TransactionTemplate transaction =
            new TransactionTemplate(new DataSourceTransactionManager(dataSource));
    private final SummedUsage summed = new SummedUsage(dataSource);
    private final RunningUsageRepository remembering = new RunningUsageRepository(
            new JdbcTemplate(dataSource),
            WindowCalendar.UTC,
            new WindowStartsCache(100),
            new DecisionStoreMetrics(new SimpleMeterRegistry()));
    private final RunningUsageRepository reading = new RunningUsageRepository(
            new JdbcTemplate(dataSource),
            WindowCalendar.UTC,
            new WindowStartsCache(0),
            new DecisionStoreMetrics(new SimpleMeterRegistry()));
    private final TestKeys ownKeys = new TestKeys();

    @AfterEach
    void deleteTheRowsOfTheTestsKeys() {
        ownKeys.deleteTheirRows(db);
    }

    @Test
    void usageStaysThatOfAFullReadWhileOthersAddToTheCurrentBucket() {
        BusinessKey key = keyWithHistory(true);
        assertThat(usage(remembering, key)).isEqualTo(summed.usageUpTo(key, BUCKET));

        // another instance writes the key's bucket of this hour, then adds to it
        addToBucket(key, 0, 50);
        addToBucket(key, 0, 20);

        Usage usage = usage(remembering, key);
        assertThat(usage).isEqualTo(summed.usageUpTo(key, BUCKET));
        assertThat(usage.of(Window.LAST_24_HOURS)).isEqualTo(new Tally(75, 3));
        assertThat(usage).isEqualTo(usage(reading, key));
    }

    /**
     * A key without a bucket in the last 24 hours is read in full every time: when the archiver
     * deletes all of its buckets, the running totals of its next bucket start from zero again, and
     * totals remembered from before would make its usage negative.
     */
    @Test
    void aKeyWithoutABucketInTheDayIsReadEveryTime() {
        BusinessKey key = ownKeys.newKey();
        addToBucket(key, -1000, 400);
        usage(remembering, key);

        db.update("DELETE FROM risk_hourly_chunk WHERE entity_id = ?", key.entityId());
        addToBucket(key, 0, 30);

        assertThat(usage(remembering, key)).isEqualTo(summed.usageUpTo(key, BUCKET));
        assertThat(usage(remembering, key).of(Window.LAST_24_HOURS)).isEqualTo(new Tally(30, 1));
    }

    /**
     * As above, when the key's new totals outgrow the old ones: starts remembered from before the archiver
     * deleted its buckets would give a usage above zero, and too small, which no later check catches.
     */
    @Test
    void aKeyWithoutABucketInTheDayIsReadEveryTimeEvenWhenItsNewTotalsPassItsOldOnes() {
        BusinessKey key = ownKeys.newKey();
        addToBucket(key, -1000, 400);
        usage(remembering, key);

        db.update("DELETE FROM risk_hourly_chunk WHERE entity_id = ?", key.entityId());
        addToBucket(key, 0, 500);

        assertThat(usage(remembering, key).of(Window.LAST_24_HOURS)).isEqualTo(new Tally(500, 1));
    }

    @Test
    void keysRememberedAndKeysReadInOneStatementBothGetTheirUsage() {
        BusinessKey remembered = keyWithHistory(true);
        usage(remembering, remembered);
        addToBucket(remembered, 0, 5);
        BusinessKey fresh = keyWithHistory(true);
        BusinessKey outsideTheDay = keyWithHistory(false);
        BusinessKey withoutBuckets = ownKeys.newKey();

        Map<ScopeKey, Usage> usage = remembering
                .usageUpTo(
                        Stream.of(remembered, fresh, outsideTheDay, withoutBuckets)
                                .map(ScopeKey::of)
                                .toList(),
                        BUCKET)
                .usage();

        assertThat(usage)
                .containsEntry(ScopeKey.of(remembered), summed.usageUpTo(remembered, BUCKET))
                .containsEntry(ScopeKey.of(fresh), summed.usageUpTo(fresh, BUCKET))
                .containsEntry(ScopeKey.of(outsideTheDay), summed.usageUpTo(outsideTheDay, BUCKET))
                .containsEntry(ScopeKey.of(withoutBuckets), Usage.NONE);
    }

    /**
     * The point of remembering: a key decided again within the hour costs one index probe (its latest
     * bucket), not two (and a range scan of its buckets since its earliest window start, for a key with
     * as few buckets as these).
     */
    @Test
    void aRememberedKeyIsReadWithOneIndexProbe() {
        BusinessKey key = keyWithHistory(true);

        assertThat(indexScansOfOneRead(key)).isEqualTo(2);
        assertThat(indexScansOfOneRead(key)).isEqualTo(1);
        assertThat(indexScansOfOneRead(key)).isEqualTo(1);
        BusinessKey outsideTheDay = keyWithHistory(false);
        assertThat(indexScansOfOneRead(outsideTheDay)).isEqualTo(2);
        assertThat(indexScansOfOneRead(outsideTheDay)).isEqualTo(2);
    }

    /**
     * An operator's correction of the key's latest bucket, made through the triggers, changes what
     * the day window, which holds no bucket of the key, starts from: the bucket counts the rewrite, so
     * the remembered starts are read again and the usage stays exact.
     */
    @Test
    void aCorrectionOfTheLatestBucketThroughTheTriggersIsSeenAtOnce() {
        BusinessKey key = ownKeys.newKey();
        addToBucket(key, -13, 1_000); // 23:00 the day before
        usage(remembering, key);

        db.update(
                "UPDATE risk_hourly_agg SET sum_amount = 1500 WHERE entity_id = ? AND bucket_ts = ?",
                key.entityId(),
                java.sql.Timestamp.valueOf(NOW_HOUR.minusHours(13)));

        Usage usage = usage(remembering, key);
        assertThat(usage.of(Window.DAY)).isEqualTo(Tally.ZERO);
        assertThat(usage).isEqualTo(summed.usageUpTo(key, BUCKET));
    }

    /**
     * A bucket written before a window's start (a writer that loads history out of order, or a database
     * clock that stepped back a day) changes the totals before that window: the key's latest bucket
     * counts the rewrite, so the remembered starts are read again and the usage stays exact.
     */
    @Test
    void aBucketWrittenBeforeAWindowsStartIsSeenAtOnce() {
        BusinessKey key = keyWithHistory(true);
        usage(remembering, key);

        addToBucket(key, -48, 7);

        Usage exact = summed.usageUpTo(key, BUCKET);
        assertThat(usage(remembering, key)).isEqualTo(exact);
        assertThat(usage(reading, key)).isEqualTo(exact);
        assertThat(indexScansOfOneRead(key))
                .as("remembered again after the read")
                .isEqualTo(1);
    }

    /**
     * A writer that lowers the key's latest bucket with the totals written by its own statement, and
     * counts no rewrite as it should, changes what the day window, which holds no bucket of the key,
     * starts from: remembered starts that would give that window a usage below zero are not used, and
     * the key is read again.
     */
    @Test
    void rememberedStartsThatWouldGiveAUsageBelowZeroAreReadAgain() {
        BusinessKey key = ownKeys.newKey();
        addToBucket(key, -13, 1_000); // 23:00 the day before
        usage(remembering, key);

        transaction.executeWithoutResult(status -> {
            db.queryForObject("SELECT set_config('risk.running_totals_written_by', 'statement', true)", String.class);
            db.update("""
                    UPDATE risk_hourly_agg SET sum_amount = 600, running_amount = running_amount - 400
                    WHERE entity_id = ? AND bucket_ts = ?
                    """, key.entityId(), java.sql.Timestamp.valueOf(NOW_HOUR.minusHours(13)));
        });

        Usage usage = usage(remembering, key);
        assertThat(usage.of(Window.DAY)).isEqualTo(Tally.ZERO);
        assertThat(usage).isEqualTo(summed.usageUpTo(key, BUCKET));
    }

    // in a transaction set up as the decider's are (risk_begin_scoped_batch_decision turns sequential
    // scans off): on the few rows of a test database the planner may otherwise read the buckets whole
    // and probe no index at all
    private int indexScansOfOneRead(BusinessKey key) {
        return transaction.execute(status -> {
            db.execute("SET LOCAL enable_seqscan = off");
            int before = indexScansInThisTransaction();
            remembering.usageUpTo(List.of(ScopeKey.of(key)), BUCKET);
            return indexScansInThisTransaction() - before;
        });
    }

    // on any index of the chunks: with the few rows of a test database the planner may take the archive
    // index (first_ts, key_hash) for a probe as well as the primary key
    private int indexScansInThisTransaction() {
        return db.queryForObject("""
                SELECT CAST(sum(pg_stat_get_xact_numscans(indexrelid)) AS integer)
                FROM pg_index
                WHERE indrelid = CAST('risk_hourly_chunk' AS regclass)
                """, Integer.class);
    }

    /**
     * Buckets before the 30-day window, inside it, inside the 7 days, and, if asked, one inside the
     * last 24 hours.
     */
    private BusinessKey keyWithHistory(boolean withinTheDay) {
        BusinessKey key = ownKeys.newKey();
        addToBucket(key, -800, 1000);
        addToBucket(key, -300, 300);
        addToBucket(key, -100, 100);
        addToBucket(key, -30, 30);
        if (withinTheDay) {
            addToBucket(key, -5, 5);
        }
        return key;
    }

    private static Usage usage(RunningUsageRepository repository, BusinessKey key) {
        return repository.usageUpTo(List.of(ScopeKey.of(key)), BUCKET).usage().get(ScopeKey.of(key));
    }

    private void addToBucket(BusinessKey key, int hoursFromNow, long amount) {
        BucketRows.add(db, key, NOW_HOUR.plusHours(hoursFromNow), amount);
    }
}
