package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.support.DatabaseOfItsOwn;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Where the decider's bucket updates land on the tables' heap pages: on the page of the row they update
 * (HOT), with no new index entries. Whether a page has room for an update depends on the page as well as
 * on the table's fillfactor: on the other rows that share it, and on what their writers do between a test's
 * two transactions. In the shared database those are every other test's, so these tests run on a database
 * of their own.
 */
class BucketPagesIT {

    private static final LocalDateTime START = LocalDateTime.of(2026, 1, 1, 0, 0);
    private static final DatabaseOfItsOwn DATABASE = DatabaseOfItsOwn.migrated("risk_it_bucket_pages");

    private final JdbcTemplate db = new JdbcTemplate(DATABASE.dataSource());
    private final TransactionTemplate transaction =
            new TransactionTemplate(new DataSourceTransactionManager(DATABASE.dataSource()));
    private final BatchedDeciderWrites batched = new BatchedDeciderWrites(db);

    @AfterAll
    static void dropTheDatabase() {
        DATABASE.close();
    }

    /**
     * Adding to a key's current bucket, or appending the hour's first to its chunk, changes no indexed
     * value (the primary key is the key and the chunk's first hour), so PostgreSQL updates the chunk's row
     * on its heap page (HOT) and writes no index entries (docs/adr/0006-buckets-in-chunks.md).
     */
    @Test
    void addingToTheCurrentBucketWritesNoIndexEntries() {
        UUID entity = UUID.randomUUID();
        Instant bucket = START.toInstant(ZoneOffset.UTC);
        BucketRows.add(db, new BusinessKey(entity, "CARD", Direction.OUT), START.minusHours(1), 40);

        List<String> updates = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            updates.add(transaction.execute(status -> {
                batched.addAtTheKey(entity, bucket, 10);
                return db.queryForObject("""
                        SELECT pg_stat_get_xact_tuples_updated('risk_hourly_chunk'::regclass) || ' updated, '
                               || pg_stat_get_xact_tuples_hot_updated('risk_hourly_chunk'::regclass) || ' HOT'
                        """, String.class);
            }));
        }

        // the first transaction appends the bucket to the key's chunk (V13); the four after it add to it
        assertThat(updates)
                .containsExactly(
                        "1 updated, 1 HOT",
                        "1 updated, 1 HOT",
                        "1 updated, 1 HOT",
                        "1 updated, 1 HOT",
                        "1 updated, 1 HOT");
        assertThat(PrefixSums.keyMismatches(db, entity)).isEmpty();
    }

    /**
     * A batch adds to many keys' buckets of this hour, and a key's first event of the hour inserts its
     * bucket next to the other keys' new buckets, so a page of this hour's buckets can see every one of its
     * rows updated by one transaction. Each update stays on the page (HOT) only if the page has room for a
     * new version of each of its rows besides the old ones, which that transaction's commit has yet to free:
     * the bucket tables leave half of every page free (migration V11). Filled to 85 %, as before, a page
     * took about one new version for every six of its rows, and the others moved to other pages with new
     * index entries.
     */
    @Test
    void aBatchAddingToEveryBucketOfThisHourWritesNoIndexEntries() {
        List<BusinessKey> keys = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            keys.add(new BusinessKey(UUID.randomUUID(), "CARD", Direction.OUT));
        }
        Instant bucket = START.plusHours(1).toInstant(ZoneOffset.UTC);
        transaction.executeWithoutResult(status -> batched.addAtEachKeyAndEntity(keys, bucket, 40));

        String updates = transaction.execute(status -> {
            batched.addAtEachKeyAndEntity(keys, bucket, 10);
            return db.queryForObject("""
                    SELECT pg_stat_get_xact_tuples_updated('risk_hourly_chunk'::regclass) || ' updated, '
                           || pg_stat_get_xact_tuples_hot_updated('risk_hourly_chunk'::regclass) || ' HOT; '
                           || pg_stat_get_xact_tuples_updated('risk_scope_hourly_chunk'::regclass) || ' updated, '
                           || pg_stat_get_xact_tuples_hot_updated('risk_scope_hourly_chunk'::regclass) || ' HOT'
                    """, String.class);
        });

        // every key's bucket and its entity's
        assertThat(updates).isEqualTo("120 updated, 120 HOT; 120 updated, 120 HOT");
    }

    /**
     * PostgreSQL locks every row an UPDATE changes for a BEFORE UPDATE row trigger (a WAL record of its
     * own per row) before it evaluates the trigger's WHEN clause, so such a trigger would cost each of the
     * decider's updates that lock although the triggers stand aside for its statements: a changed bucket is
     * moved by the AFTER trigger instead (migration V12). The WAL of the batch shows its updates and no
     * row locks (pg_walinspect, PostgreSQL 16 and later).
     */
    @Test
    void aBatchAddingToThisHoursBucketsLocksNoRowsForTheTriggers() {
        assumeTrue(
                db.queryForObject(
                        "SELECT count(*) > 0 FROM pg_available_extensions WHERE name = 'pg_walinspect'", Boolean.class),
                "pg_walinspect is not available on this server");
        db.execute("CREATE EXTENSION IF NOT EXISTS pg_walinspect");
        List<BusinessKey> keys = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            keys.add(new BusinessKey(UUID.randomUUID(), "CARD", Direction.OUT));
        }
        Instant bucket = START.plusHours(2).toInstant(ZoneOffset.UTC);
        transaction.executeWithoutResult(status -> batched.addAtEachKeyAndEntity(keys, bucket, 40));

        String before = db.queryForObject("SELECT pg_current_wal_insert_lsn()::text", String.class);
        transaction.executeWithoutResult(status -> {
            // the embedded server commits asynchronously, and WAL is read only as far as it was flushed
            db.execute("SET LOCAL synchronous_commit = on");
            batched.addAtEachKeyAndEntity(keys, bucket, 10);
        });
        String after = db.queryForObject("SELECT pg_current_wal_flush_lsn()::text", String.class);
        String records = db.queryForObject("""
                SELECT count(*) FILTER (WHERE record_type LIKE 'HOT_UPDATE%') || ' updated in place, '
                       || count(*) FILTER (WHERE record_type LIKE 'LOCK%') || ' locked'
                FROM pg_get_wal_block_info(?::pg_lsn, ?::pg_lsn, false)
                WHERE resource_manager = 'Heap'
                  AND relfilenode IN (pg_relation_filenode('risk_hourly_chunk'),
                                      pg_relation_filenode('risk_scope_hourly_chunk'))
                """, String.class, before, after);

        // every key's bucket and its entity's
        assertThat(records).isEqualTo("100 updated in place, 0 locked");
        assertThat(PrefixSums.keyMismatches(db, keys.get(0).entityId())).isEmpty();
    }
}
