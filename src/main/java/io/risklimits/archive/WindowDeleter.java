package io.risklimits.archive;

import jakarta.annotation.PreDestroy;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.Supplier;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Deletes (or, in a dry run, counts) the rows of one window [from, to) in the audit log and in the
 * buckets of every scope (risk_hourly_chunk for the business keys, risk_scope_hourly_chunk for the
 * others, V13), with a fixed fan-out: one worker per slice of the key-hash space, each in its own short
 * transactions under a statement timeout. Returns only when every worker is done with all three tables.
 */
@Component
class WindowDeleter {

    private static final String LOG_ROWS = """
            FROM risk_request_log
            WHERE bucket_ts >= :from AND bucket_ts < :to
              AND key_hash BETWEEN :firstHash AND :lastHash
            """;

    // the ledgers of the authorizations of the window (risk_authorization_ledger.bucket_ts is the
    // authorization's): once its audit row is gone no follow-up finds the authorization, nor its ledger
    private static final String LEDGER_ROWS = """
            FROM risk_authorization_ledger
            WHERE bucket_ts >= :from AND bucket_ts < :to
              AND key_hash BETWEEN :firstHash AND :lastHash
            """;

    // The buckets before the window's end (:to, :toHour) in one bucket table of chunks (V13, the key
    // buckets' or the other scopes'; a scope key's hash is in the business keys' hash space, so one set of
    // slices covers both): a chunk whose buckets all are goes; one that holds later buckets too keeps those,
    // and its totals before its first bucket grow by what it loses, so its running totals stay the key's.
    // The candidates are found by first hour (the archive index), so a chunk is never reached through an
    // hour it does not begin with. Buckets before the window's start are gone already: the cursor moves
    // past a window only once it is deleted.
    private static final String DELETE_BUCKETS = """
            WITH emptied AS (
                DELETE FROM {table} chunk
                WHERE chunk.first_ts < :to
                  AND chunk.key_hash BETWEEN :firstHash AND :lastHash
                  AND chunk.hours[cardinality(chunk.hours)] < :toHour
                RETURNING cardinality(chunk.hours) AS buckets
            ), trimmed AS (
                UPDATE {table} chunk
                SET first_ts      = risk_hour_ts(kept.hours[1]),
                    hours         = kept.hours,
                    sums          = kept.sums,
                    counts        = kept.counts,
                    amount_before = chunk.amount_before + kept.amount_gone,
                    count_before  = chunk.count_before + kept.count_gone
                FROM {table} old
                CROSS JOIN LATERAL risk_chunk_from(old.hours, old.sums, old.counts, :toHour) AS kept
                WHERE chunk.ctid = old.ctid
                  AND old.first_ts < :to
                  AND old.key_hash BETWEEN :firstHash AND :lastHash
                  AND old.hours[cardinality(old.hours)] >= :toHour
                RETURNING cardinality(old.hours) - cardinality(kept.hours) AS buckets
            )
            SELECT coalesce((SELECT sum(buckets) FROM emptied), 0) + coalesce((SELECT sum(buckets) FROM trimmed), 0)
            """;

    // the buckets of the window, for a dry run, which deletes nothing before it either
    private static final String COUNT_BUCKETS = """
            SELECT count(*)
            FROM {table} chunk
            CROSS JOIN LATERAL unnest(chunk.hours) AS bucket (hour)
            WHERE chunk.first_ts < :to
              AND chunk.key_hash BETWEEN :firstHash AND :lastHash
              AND bucket.hour >= :fromHour AND bucket.hour < :toHour
            """;

    // INVALID events without a readable business key have no key hash; the first worker takes them
    private static final String KEYLESS_LOG_ROWS = """
            FROM risk_keyless_request_log
            WHERE bucket_ts >= :from AND bucket_ts < :to
            """;

    private static final String SQLSTATE_QUERY_CANCELED = "57014";

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    private final List<HashSlots.Slot> slots;
    private final ExecutorService workers;
    private final long statementTimeoutMillis;

    WindowDeleter(JdbcClient jdbc, PlatformTransactionManager transactionManager, ArchiverProperties properties) {
        this.jdbc = jdbc;
        this.transactions = new TransactionTemplate(transactionManager);
        this.slots = HashSlots.of(properties.workers());
        this.workers = Executors.newFixedThreadPool(properties.workers());
        this.statementTimeoutMillis = properties.statementTimeout().toMillis();
    }

    /** Rows deleted (or counted) per table: the key buckets, the other scopes' buckets, the audit log. */
    record Deleted(long keyAggRows, long scopeAggRows, long logRows) {

        /** The buckets of every scope. */
        long aggRows() {
            return keyAggRows + scopeAggRows;
        }
    }

    /** Thrown when a delete hit the statement timeout: the window is too large. */
    static final class WindowTooLarge extends RuntimeException {
        WindowTooLarge(Throwable cause) {
            super("a delete exceeded the statement timeout", cause);
        }
    }

    /**
     * The window in two phases, each over every slice: first the audit rows and the key buckets, then
     * the other scopes' buckets. A scope key's buckets hold the usage of business keys of any slice, so
     * they go only once no slice's audit log has an original left in the window that a reversal could
     * still find and release at that scope key.
     */
    Deleted run(LocalDateTime from, LocalDateTime to, boolean dryRun) {
        Deleted keys = inEverySlot(slot -> keyRows(slot, from, to, dryRun));
        Deleted scopes =
                inEverySlot(slot -> new Deleted(0, buckets("risk_scope_hourly_chunk", slot, from, to, dryRun), 0));
        return new Deleted(keys.keyAggRows(), scopes.scopeAggRows(), keys.logRows());
    }

    private Deleted inEverySlot(Function<HashSlots.Slot, Deleted> work) {
        List<Future<Deleted>> done = new ArrayList<>(slots.size());
        for (HashSlots.Slot slot : slots) {
            done.add(workers.submit(() -> work.apply(slot)));
        }
        long keyAggRows = 0;
        long scopeAggRows = 0;
        long logRows = 0;
        RuntimeException failure = null;
        for (Future<Deleted> worker : done) {
            try {
                Deleted deleted = worker.get();
                keyAggRows += deleted.keyAggRows();
                scopeAggRows += deleted.scopeAggRows();
                logRows += deleted.logRows();
            } catch (ExecutionException e) {
                failure = failure != null ? failure : asRuntime(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure = failure != null ? failure : new IllegalStateException("interrupted", e);
            }
        }
        if (failure != null) {
            throw failure;
        }
        return new Deleted(keyAggRows, scopeAggRows, logRows);
    }

    /**
     * The audit rows of the slot's window go before its key buckets, each table in its own transaction, so
     * no reversal releases into an hour whose bucket is gone: a reversal looks its original up in the
     * audit log, locking the row it finds until its commit, before it releases into the original's
     * bucket. Once the original's row is deleted no reversal finds it (ORIGINAL_NOT_FOUND); one that
     * found it first holds up that delete, and so the buckets', until its release is written.
     */
    private Deleted keyRows(HashSlots.Slot slot, LocalDateTime from, LocalDateTime to, boolean dryRun) {
        long logRows = rows(LOG_ROWS, slot, from, to, dryRun);
        if (!dryRun) {
            // not reported: a ledger goes with its authorization's audit row, which is
            rows(LEDGER_ROWS, slot, from, to, false);
        }
        if (slot.index() == 0) {
            logRows += rows(KEYLESS_LOG_ROWS, slot, from, to, dryRun);
        }
        long keyAggRows = buckets("risk_hourly_chunk", slot, from, to, dryRun);
        return new Deleted(keyAggRows, 0, logRows);
    }

    private long rows(String rowsOfWindow, HashSlots.Slot slot, LocalDateTime from, LocalDateTime to, boolean dryRun) {
        return underTheTimeout(() -> {
            JdbcClient.StatementSpec statement = jdbc.sql((dryRun ? "SELECT count(*) " : "DELETE ") + rowsOfWindow)
                    .param("from", from)
                    .param("to", to);
            if (rowsOfWindow.contains(":firstHash")) {
                statement = statement.param("firstHash", slot.first()).param("lastHash", slot.last());
            }
            return dryRun ? statement.query(Long.class).single() : (long) statement.update();
        });
    }

    // the buckets before the window's end in one table of chunks, deleted (or counted)
    private long buckets(String table, HashSlots.Slot slot, LocalDateTime from, LocalDateTime to, boolean dryRun) {
        return underTheTimeout(() -> jdbc.sql((dryRun ? COUNT_BUCKETS : DELETE_BUCKETS).replace("{table}", table))
                .param("to", to)
                .param("fromHour", hourNumber(from))
                .param("toHour", hourNumber(to))
                .param("firstHash", slot.first())
                .param("lastHash", slot.last())
                .query(Long.class)
                .single());
    }

    // the rows one statement deleted (or counted), in a transaction of its own under the statement timeout
    private long underTheTimeout(Supplier<Long> statement) {
        Long rows = transactions.execute(status -> {
            jdbc.sql("SELECT set_config('statement_timeout', :timeout, true)")
                    .param("timeout", Long.toString(statementTimeoutMillis))
                    .query(rs -> {});
            return statement.get();
        });
        return rows == null ? 0 : rows;
    }

    // an hour as the chunks keep it (V13): hours since 1970-01-01 00:00
    private static int hourNumber(LocalDateTime hour) {
        return Math.toIntExact(hour.toEpochSecond(ZoneOffset.UTC) / 3600);
    }

    private static RuntimeException asRuntime(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && SQLSTATE_QUERY_CANCELED.equals(sql.getSQLState())) {
                return new WindowTooLarge(failure);
            }
        }
        return failure instanceof RuntimeException runtime ? runtime : new IllegalStateException(failure);
    }

    @PreDestroy
    void stop() {
        workers.shutdownNow();
    }
}
