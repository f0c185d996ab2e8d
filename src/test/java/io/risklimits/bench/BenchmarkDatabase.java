package io.risklimits.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * The benchmark's rows: limits for its channel, history for its keys, and the reset between runs.
 * History is bulk-loaded with its running totals computed in the statement, the running-totals
 * triggers disabled meanwhile (nothing else writes during the load).
 */
final class BenchmarkDatabase {

    private static final String INSERT_LIMIT = """
            INSERT INTO risk_limit (channel, direction, entity_id, window_name, max_amount, max_count)
            VALUES (?, '*', ?::uuid, ?, ?, ?)
            """;

    // One row per key and hour. Between 1 and 3 transactions an hour of 500 .. 2,000 each, varying by
    // key (its ordinal in the statement's keys) and hour.
    private static final String HISTORY_BUCKETS = """
            SELECT business_key.entity_id, business_key.direction_code,
                   ?::timestamp - make_interval(hours => age) AS bucket_ts,
                   bucket.tx_count * (500 + (business_key.ordinal * 37 + age * 11) % 1500) AS sum_amount,
                   bucket.tx_count
            FROM unnest(?::uuid[], ?::text[]) WITH ORDINALITY AS business_key(entity_id, direction_code, ordinal)
            CROSS JOIN LATERAL generate_series(?::integer, 1, -1) AS age
            CROSS JOIN LATERAL (SELECT (1 + (business_key.ordinal + age) % 3)::integer AS tx_count) AS bucket
            """;

    // Buckets with their running totals (the key's columns, bucket_ts, sum_amount, tx_count, running_amount,
    // running_count) into a table of chunks (V13) as the decider fills them: each key's buckets in hour order,
    // 24 a chunk. %1$s is the table, %2$s the key's columns, %3$s the buckets, %4$s the chunks' rewrites.
    private static final String INSERT_CHUNKS = """
            INSERT INTO %1$s (%2$s, first_ts, hours, sums, counts, amount_before, count_before, running_amount,
                              running_count, rewrites)
            SELECT %2$s, min(bucket_ts),
                   array_agg(CAST(extract(epoch FROM bucket_ts) / 3600 AS integer) ORDER BY bucket_ts),
                   array_agg(sum_amount ORDER BY bucket_ts), array_agg(tx_count ORDER BY bucket_ts),
                   min(running_amount - sum_amount), min(running_count - tx_count),
                   max(running_amount), max(running_count), %4$s
            FROM (SELECT bucket.*, (row_number() OVER (PARTITION BY %2$s ORDER BY bucket_ts) - 1) / 24 AS chunk
                  FROM (%3$s) AS bucket) AS numbered
            GROUP BY %2$s, chunk
            """;

    private static final String KEY_COLUMNS = "entity_id, channel_code, direction_code";

    private static final String SCOPE_COLUMNS = "scope, owner_id, channel_code, direction_code";

    // The running totals are computed here, set-based: through the view, row by row, each bucket costs
    // a lookup and a rewrite of its chunk.
    private static final String INSERT_HISTORY =
            INSERT_CHUNKS.formatted("risk_hourly_chunk", KEY_COLUMNS, """
            SELECT entity_id, CAST(? AS text) AS channel_code, direction_code, bucket_ts, sum_amount, tx_count,
                   sum(sum_amount) OVER key_history AS running_amount, sum(tx_count) OVER key_history AS running_count
            FROM (%s) AS history
            WINDOW key_history AS (PARTITION BY entity_id, direction_code ORDER BY bucket_ts)
            """.formatted(HISTORY_BUCKETS), "0");

    // A wide key set's buckets: per key WIDE_BUCKETS_PER_KEY buckets, SPACING hours apart, the latest 1 to
    // SPACING hours before the load's hour (by the key's ordinal), amounts as in INSERT_HISTORY.
    private static final String WIDE_BUCKETS = """
            SELECT business_key.entity_id, business_key.direction_code,
                   ?::timestamp - make_interval(hours => age) AS bucket_ts,
                   bucket.tx_count * (500 + (business_key.ordinal * 37 + age * 11) % 1500) AS sum_amount,
                   bucket.tx_count
            FROM unnest(?::uuid[], ?::text[]) WITH ORDINALITY AS business_key(entity_id, direction_code, ordinal)
            CROSS JOIN LATERAL generate_series(0, ? - 1) AS earlier(buckets)
            CROSS JOIN LATERAL (SELECT (1 + business_key.ordinal % ?)::integer + earlier.buckets * ? AS age)
                AS bucket_age(age)
            CROSS JOIN LATERAL (SELECT (1 + (business_key.ordinal + age) % 3)::integer AS tx_count) AS bucket
            """;

    // A wide key set's history in one statement. The statement writes the running totals (a window sum
    // per key) and counts its write as a rewrite, 1 on every chunk it writes.
    private static final String INSERT_WIDE_HISTORY =
            INSERT_CHUNKS.formatted("risk_hourly_chunk", KEY_COLUMNS, """
            SELECT entity_id, CAST(? AS text) AS channel_code, direction_code, bucket_ts, sum_amount, tx_count,
                   sum(sum_amount) OVER key_history AS running_amount, sum(tx_count) OVER key_history AS running_count
            FROM (%s) AS history
            WINDOW key_history AS (PARTITION BY entity_id, direction_code ORDER BY bucket_ts)
            """.formatted(WIDE_BUCKETS), "1");

    // A key set's entity scope history: what INSERT_SCOPE_HISTORY adds up from the key buckets, added up
    // here from the same generated buckets (HISTORY_BUCKETS or WIDE_BUCKETS, with the same parameters as
    // the statement that writes those), so that it need not wait for them to be written.
    private static final String INSERT_ENTITY_HISTORY =
            INSERT_CHUNKS.formatted("risk_scope_hourly_chunk", SCOPE_COLUMNS, """
            SELECT CAST('entity' AS text) AS scope, entity_id AS owner_id, CAST('*' AS text) AS channel_code,
                   direction_code, bucket_ts, sum_amount, tx_count,
                   sum(sum_amount) OVER owner_history AS running_amount, sum(tx_count) OVER owner_history AS running_count
            FROM (SELECT entity_id, direction_code, bucket_ts,
                         CAST(sum(sum_amount) AS bigint) AS sum_amount, CAST(sum(tx_count) AS integer) AS tx_count
                  FROM (%s) AS key_bucket
                  GROUP BY 1, 2, 3) AS scoped
            WINDOW owner_history AS (PARTITION BY entity_id, direction_code ORDER BY bucket_ts)
            """, "0");

    // The history of a scope over a key set's entities, from their key buckets: each entity's buckets added
    // up under its owner (the entity itself, or its account), over all channels or per channel, with the
    // running totals computed here. Only in a transaction in which the triggers stand aside.
    private static final String INSERT_SCOPE_HISTORY =
            INSERT_CHUNKS.formatted("risk_scope_hourly_chunk", SCOPE_COLUMNS, """
            SELECT CAST(? AS text) AS scope, owner_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count,
                   sum(sum_amount) OVER owner_history AS running_amount, sum(tx_count) OVER owner_history AS running_count
            FROM (SELECT owner.owner_id, CASE WHEN ? THEN bucket.channel_code ELSE '*' END AS channel_code,
                         bucket.direction_code, bucket.bucket_ts,
                         CAST(sum(bucket.sum_amount) AS bigint) AS sum_amount,
                         CAST(sum(bucket.tx_count) AS integer) AS tx_count
                  FROM unnest(?::uuid[], ?::uuid[]) AS owner (entity_id, owner_id)
                  JOIN risk_hourly_agg bucket ON bucket.entity_id = owner.entity_id
                  WHERE bucket.bucket_ts < ?::timestamp
                  GROUP BY 1, 2, 3, 4) AS scoped
            WINDOW owner_history AS (PARTITION BY owner_id, channel_code, direction_code ORDER BY bucket_ts)
            """, "0");

    // Everything the runs wrote: the buckets from the hour of the load on (history ends before it), at
    // every scope. A chunk of the runs' alone is deleted; the runs' buckets are taken off the end of a
    // history's chunk (V13), with the totals after them. %s narrows the chunks to a key set's.
    private static final String DELETE_RUN_CHUNKS = """
            DELETE FROM %s chunk WHERE chunk.first_ts >= CAST(:loadHour AS timestamp) %s
            """;
    private static final String TRIM_RUN_BUCKETS = """
            UPDATE %1$s chunk
            SET hours = kept.hours, sums = kept.sums, counts = kept.counts,
                running_amount = chunk.amount_before + kept.amount, running_count = chunk.count_before + kept.count
            FROM (SELECT history.ctid AS row_id,
                         array_agg(bucket.hour ORDER BY bucket.position) AS hours,
                         array_agg(bucket.sum_amount ORDER BY bucket.position) AS sums,
                         array_agg(bucket.tx_count ORDER BY bucket.position) AS counts,
                         sum(bucket.sum_amount) AS amount, sum(bucket.tx_count) AS count
                  FROM %1$s history
                  CROSS JOIN LATERAL unnest(history.hours, history.sums, history.counts) WITH ORDINALITY
                       AS bucket (hour, sum_amount, tx_count, position)
                  WHERE history.first_ts < CAST(:loadHour AS timestamp)
                    AND history.hours[cardinality(history.hours)] >= :loadHourNumber
                    AND bucket.hour < :loadHourNumber %2$s
                  GROUP BY history.ctid) AS kept
            WHERE chunk.ctid = kept.row_id
            """;
    private static final String OF_THE_KEYS = "AND %1$s.entity_id = ANY (:entityIds) AND %1$s.channel_code = :channel";

    // Everything the runs decided: their decisions fall in the hour of the load or later (the old ones
    // are 40 days older).
    private static final String DELETE_RUN_DECISIONS = """
            DELETE FROM risk_request_log WHERE channel_code = ? AND bucket_ts >= ?::timestamp
            """;

    // What the runs counted of their authorizations (holds and the follow-ups that acted on them): the
    // ledgers of the hour of the load or later.
    private static final String DELETE_RUN_LEDGERS = """
            DELETE FROM risk_authorization_ledger WHERE channel_code = ? AND bucket_ts >= ?::timestamp
            """;

    // Holds a deployment has open: authorizations of the days before the load, one every 13 hours per key,
    // each held until a week after the load, so none falls due in the run; the run's resets delete only the
    // ledgers of the load hour on (DELETE_RUN_LEDGERS). No audit row goes with them: nothing in the run
    // reads one (a batch reads an authorization's row only for a hold due, or for a follow-up naming it).
    private static final String INSERT_OPEN_HOLDS = """
            INSERT INTO risk_authorization_ledger (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                                   parts, status, expires_at, count_hour)
            SELECT business_key.entity_id, ?, business_key.direction_code, gen_random_uuid(), held.hour,
                   json_build_array(json_build_object(
                           'kind', 'AUTHORIZATION', 'hour', to_char(held.hour, 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                           'amount', 1250, 'released', 0)),
                   'OPEN', (CAST(? AS timestamp) AT TIME ZONE 'UTC') + interval '7 days', held.hour
            FROM unnest(?::uuid[], ?::text[]) AS business_key (entity_id, direction_code)
            CROSS JOIN generate_series(1, ?) AS held_number
            CROSS JOIN LATERAL (SELECT CAST(? AS timestamp) - held_number * interval '13 hours' AS hour) AS held
            """;

    // Decisions of an hour past retention, a typical approval's usage and limits as the decider writes them.
    private static final String INSERT_OLD_DECISIONS = """
            INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                          decision, amount, currency, occurred_at, usage, limits, decided_at)
            SELECT business_key.entity_id, ?, business_key.direction_code, gen_random_uuid(), old.hour,
                   'APPROVED', 1250, 'USD', old.hour AT TIME ZONE 'UTC', ?::json, ?::json, old.hour AT TIME ZONE 'UTC'
            FROM (SELECT ?::timestamp AS hour) AS old
            CROSS JOIN unnest(?::uuid[], ?::text[]) AS business_key(entity_id, direction_code)
            CROSS JOIN generate_series(1, ?)
            """;

    private static final String OLD_USAGE = """
            {"24h":{"amount":2500,"count":2},"7d":{"amount":1826250,"count":1461},\
            "30d":{"amount":7826250,"count":6261}}""";
    private static final String OLD_LIMITS = """
            {"24h":{"amount":50000000,"count":5000},"7d":{"amount":200000000,"count":20000},\
            "30d":{"amount":500000000,"count":50000}}""";

    // One in 4,096 stays, as rows of a later hour would: VACUUM cuts empty pages off a table's end.
    private static final String DELETE_OLD_DECISIONS = """
            DELETE FROM risk_request_log
            WHERE bucket_ts = ?::timestamp AND channel_code = ? AND dedupe_id::text NOT LIKE '000%'
            """;

    private static final int KEYS_PER_STATEMENT = 500;

    private static final String KEY_BUCKETS = "risk_hourly_chunk";

    private static final String SCOPE_BUCKETS = "risk_scope_hourly_chunk";

    private final DataSource dataSource;
    private final JdbcTemplate jdbc;
    private final Instant loadHour = Instant.now().truncatedTo(ChronoUnit.HOURS);
    private OptionalLong postmaster;
    // the heap blocks of each bucket table (risk_hourly_chunk: the keys', risk_scope_hourly_chunk: their
    // entities') the wide key set's history was written to, ascending; empty until loaded
    private final Map<String, long[]> wideBlocks = new ConcurrentHashMap<>();

    BenchmarkDatabase(DataSource dataSource) {
        this.dataSource = dataSource;
        this.jdbc = new JdbcTemplate(dataSource);
    }

    /** Applies to sessions opened after this, which includes every pool the service opens. */
    void setSynchronousCommit(String value) {
        jdbc.execute("ALTER ROLE CURRENT_USER SET synchronous_commit = '" + value.replace("'", "") + "'");
    }

    /**
     * Autovacuum visits a table after inserts of a fifth of its rows and analyzes it after a tenth. A
     * production request log holds 30 days of events, so that is days of traffic; the benchmark's holds
     * a few minutes', and autovacuum workers took half a core for a second or more in the middle of
     * latency phases. The thresholds here are at least those of a request log of ten million rows
     * (PostgreSQL adds them to its fraction of the rows the table holds); settle() vacuums and analyzes
     * it before every scenario.
     */
    void autovacuumRequestLogAsIfFull() {
        jdbc.execute("ALTER TABLE risk_request_log SET (autovacuum_vacuum_insert_threshold = 2000000,"
                + " autovacuum_analyze_threshold = 1000000)");
    }

    String describeServer() {
        String version = jdbc.queryForObject("SHOW server_version", String.class);
        String sharedBuffers = jdbc.queryForObject("SHOW shared_buffers", String.class);
        String synchronousCommit = jdbc.queryForObject("SHOW synchronous_commit", String.class);
        String maxWalSize = jdbc.queryForObject("SHOW max_wal_size", String.class);
        String checkpointTimeout = jdbc.queryForObject("SHOW checkpoint_timeout", String.class);
        // PostgreSQL 17: whether the shared memory got the huge pages huge_pages = try asked for
        String hugePages = jdbc.queryForObject(
                "SELECT coalesce(current_setting('huge_pages_status', true), 'unknown')", String.class);
        return "PostgreSQL " + version + ", shared_buffers " + sharedBuffers + " (huge pages " + hugePages
                + "), synchronous_commit " + synchronousCommit + ", max_wal_size " + maxWalSize
                + ", checkpoint_timeout " + checkpointTimeout;
    }

    /**
     * Limits of the benchmark's channel, far above what history plus a run add to a key (history
     * is about 1,440 transactions and 1.8 million in 30 days), so decisions are approvals.
     */
    void insertChannelLimits() {
        jdbc.update("DELETE FROM risk_limit WHERE channel = ?", BenchmarkKeys.CHANNEL);
        insertLimits(null, 50_000_000L, 5_000L, 200_000_000L, 20_000L, 500_000_000L, 50_000L);
    }

    /**
     * A rate for each of the foreign currencies, valid from an hour ago: fresh for the whole run
     * (risk.fx.max-age is hours), so every conversion finds its rate.
     */
    void insertFxRates() {
        jdbc.update("DELETE FROM risk_fx_rate");
        jdbc.update("""
                INSERT INTO risk_fx_rate (currency, rate, valid_from)
                VALUES ('EUR', 1.0842, now() - interval '1 hour'),
                       ('GBP', 1.2650, now() - interval '1 hour'),
                       ('JPY', 0.006712, now() - interval '1 hour'),
                       ('CAD', 0.7315, now() - interval '1 hour')
                """);
    }

    /** The hot key takes half of a run, far beyond a normal key's limits: it gets its own. */
    void raiseLimitsOf(UUID hotEntityId) {
        long amount = 1_000_000_000_000L;
        long count = 100_000_000L;
        insertLimits(hotEntityId.toString(), amount, count, amount, count, amount, count);
    }

    private void insertLimits(
            String entityId,
            long amount24h,
            long count24h,
            long amount7d,
            long count7d,
            long amount30d,
            long count30d) {
        jdbc.update(INSERT_LIMIT, BenchmarkKeys.CHANNEL, entityId, "24h", amount24h, count24h);
        jdbc.update(INSERT_LIMIT, BenchmarkKeys.CHANNEL, entityId, "7d", amount7d, count7d);
        jdbc.update(INSERT_LIMIT, BenchmarkKeys.CHANNEL, entityId, "30d", amount30d, count30d);
    }

    /** Hourly buckets for the historyDays before the current hour, for every key; returns the rows written. */
    long loadHistory(BenchmarkKeys keys, int historyDays) {
        int hours = historyDays * 24;
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement(bucketsWritten(INSERT_HISTORY))) {
            long rows = 0;
            for (int from = 0; from < keys.size(); from += KEYS_PER_STATEMENT) {
                insert.setString(1, BenchmarkKeys.CHANNEL);
                setHistoryBuckets(insert, 2, connection, keys, from, hours);
                rows += buckets(insert);
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException("Loading history failed", e);
        }
    }

    /**
     * The entity scope's history of a key set, the same rows {@link #loadScopeHistory} adds up from the key
     * buckets {@link #loadHistory} writes, but generated as those are: the two loads can run at once, on
     * two connections. Returns the rows written.
     */
    long loadEntityHistory(BenchmarkKeys keys, int historyDays) {
        try (Connection connection = dataSource.getConnection();
                Statement standAside = connection.createStatement();
                PreparedStatement insert =
                        connection.prepareStatement(bucketsWritten(INSERT_ENTITY_HISTORY.formatted(HISTORY_BUCKETS)))) {
            connection.setAutoCommit(false);
            standAside.execute("SELECT set_config('risk.running_totals_written_by', 'statement', true)");
            long rows = 0;
            for (int from = 0; from < keys.size(); from += KEYS_PER_STATEMENT) {
                setHistoryBuckets(insert, 1, connection, keys, from, historyDays * 24);
                rows += buckets(insert);
            }
            connection.commit();
            connection.setAutoCommit(true);
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException("Loading the entity scope's history failed", e);
        }
    }

    /** HISTORY_BUCKETS' parameters, from index on: the keys of the statement that starts at key from. */
    private void setHistoryBuckets(
            PreparedStatement statement, int index, Connection connection, BenchmarkKeys keys, int from, int hours)
            throws SQLException {
        statement.setObject(index, utc(loadHour));
        setKeys(statement, index + 1, connection, keys, from, Math.min(keys.size(), from + KEYS_PER_STATEMENT));
        statement.setInt(index + 3, hours);
    }

    /**
     * The history of one scope for the key set's entities, added up from their key buckets: owners[i] is
     * the owner (at the entity scope the entity, at an account scope its account) of the key set's i-th
     * entity. Returns the rows written.
     */
    long loadScopeHistory(String scope, BenchmarkKeys keys, List<UUID> owners, boolean perChannel) {
        try (Connection connection = dataSource.getConnection();
                Statement standAside = connection.createStatement();
                PreparedStatement insert = connection.prepareStatement(bucketsWritten(INSERT_SCOPE_HISTORY))) {
            connection.setAutoCommit(false);
            standAside.execute("SELECT set_config('risk.running_totals_written_by', 'statement', true)");
            insert.setString(1, scope);
            insert.setBoolean(2, perChannel);
            insert.setArray(3, uuidArray(connection, keys.entityIds()));
            insert.setArray(4, uuidArray(connection, owners));
            insert.setObject(5, utc(loadHour));
            long rows = buckets(insert);
            connection.commit();
            connection.setAutoCommit(true);
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException("Loading the " + scope + " scope's history failed", e);
        }
    }

    /**
     * Gathers the key buckets' statistics, for a statement that adds them up ({@link #loadScopeHistory})
     * after a bulk load, which autovacuum does not visit ({@link BucketTablesBulkLoad}).
     */
    void analyzeKeyBuckets() {
        jdbc.execute("ANALYZE risk_hourly_chunk");
    }

    /** Account-scope limits every account stays far below, so that decisions report the account scopes. */
    void addAccountLimits() {
        jdbc.update("""
                INSERT INTO risk_limit (scope, channel, direction, window_name, max_amount, max_count)
                VALUES ('account', '*', '*', '24h', 9000000000000000000, 9000000000000000000),
                       ('account', '*', '*', '30d', 9000000000000000000, 9000000000000000000)
                ON CONFLICT DO NOTHING
                """);
    }

    /**
     * A wide key set's sparse history (see {@link Scenario#wideKeys()}) in one set-based statement, the
     * running totals and the rewrite computed in it; returns the rows written.
     */
    long loadWideHistory(BenchmarkKeys keys) {
        try (Connection connection = dataSource.getConnection();
                Statement standAside = connection.createStatement();
                PreparedStatement insert = connection.prepareStatement(withBlocksWritten(INSERT_WIDE_HISTORY))) {
            connection.setAutoCommit(false);
            standAside.execute("SELECT set_config('risk.running_totals_written_by', 'statement', true)");
            insert.setString(1, BenchmarkKeys.CHANNEL);
            setWideBuckets(insert, 2, connection, keys);
            long rows = rowsAndBlocksWritten(insert, KEY_BUCKETS);
            connection.commit();
            connection.setAutoCommit(true);
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException("Loading the wide key set's history failed", e);
        }
    }

    /**
     * The entity scope's history of a wide key set, the same rows {@link #loadScopeHistory} adds up from
     * the key buckets {@link #loadWideHistory} writes, but generated as those are: the two loads can run
     * at once, on two connections. Returns the rows written.
     */
    long loadWideEntityHistory(BenchmarkKeys keys) {
        try (Connection connection = dataSource.getConnection();
                Statement standAside = connection.createStatement();
                PreparedStatement insert =
                        connection.prepareStatement(withBlocksWritten(INSERT_ENTITY_HISTORY.formatted(WIDE_BUCKETS)))) {
            connection.setAutoCommit(false);
            standAside.execute("SELECT set_config('risk.running_totals_written_by', 'statement', true)");
            setWideBuckets(insert, 1, connection, keys);
            long rows = rowsAndBlocksWritten(insert, SCOPE_BUCKETS);
            connection.commit();
            connection.setAutoCommit(true);
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException("Loading the wide key set's entity scope history failed", e);
        }
    }

    /** WIDE_BUCKETS' parameters, from index on. */
    private void setWideBuckets(PreparedStatement statement, int index, Connection connection, BenchmarkKeys keys)
            throws SQLException {
        statement.setObject(index, utc(loadHour));
        setKeys(statement, index + 1, connection, keys, 0, keys.size());
        statement.setInt(index + 3, Scenario.WIDE_BUCKETS_PER_KEY);
        statement.setInt(index + 4, Scenario.WIDE_BUCKET_SPACING_HOURS);
        statement.setInt(index + 5, Scenario.WIDE_BUCKET_SPACING_HOURS);
    }

    // the insert of chunks, answering how many buckets it wrote
    private static String bucketsWritten(String insert) {
        return """
                WITH written AS (%s RETURNING cardinality(hours) AS buckets)
                SELECT coalesce(sum(buckets), 0) FROM written
                """.formatted(insert);
    }

    private static long buckets(PreparedStatement bucketsWritten) throws SQLException {
        try (var rs = bucketsWritten.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    // the insert of chunks, answering how many buckets it wrote and the heap blocks it wrote them to
    private static String withBlocksWritten(String insert) {
        return """
                WITH written AS (%s RETURNING ctid, cardinality(hours) AS buckets)
                SELECT sum(buckets), array_agg(DISTINCT CAST((ctid::text::point)[0] AS bigint)) FROM written
                """.formatted(insert);
    }

    private long rowsAndBlocksWritten(PreparedStatement insert, String table) throws SQLException {
        try (var rs = insert.executeQuery()) {
            rs.next();
            Array blocks = rs.getArray(2);
            wideBlocks.put(
                    table,
                    blocks == null
                            ? new long[0]
                            : Arrays.stream((Long[]) blocks.getArray())
                                    .mapToLong(Long::longValue)
                                    .sorted()
                                    .toArray());
            return rs.getLong(1);
        }
    }

    /**
     * Drops the wide key set's history pages from shared buffers, its keys' and its entities' buckets
     * (pg_buffercache_evict, PostgreSQL 17 and later; after settle() they are clean), so that a phase reads
     * them as a decider of a card portfolio reads a card's pages: from the kernel's page cache. Returns the
     * buffers evicted, 0 where the server cannot evict.
     */
    long evictWideHistory() {
        if (wideBlocks.isEmpty()) {
            return 0;
        }
        try {
            jdbc.execute("CREATE EXTENSION IF NOT EXISTS pg_buffercache");
            long evicted = 0;
            for (Map.Entry<String, long[]> table : wideBlocks.entrySet()) {
                Long tableEvicted = jdbc.queryForObject(
                        """
                        SELECT count(*) FILTER (WHERE pg_buffercache_evict(bufferid))
                        FROM pg_buffercache
                        WHERE relfilenode = pg_relation_filenode(CAST(? AS regclass)) AND relforknumber = 0
                          AND reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
                          AND relblocknumber = ANY (?)
                        """,
                        Long.class,
                        table.getKey(),
                        Arrays.stream(table.getValue()).boxed().toArray(Long[]::new));
                evicted += tableEvicted == null ? 0 : tableEvicted;
            }
            return evicted;
        } catch (DataAccessException olderThan17) {
            return 0;
        }
    }

    /**
     * Gives each key perKey open holds of the days before the load, held past the run, as a deployment's
     * ledger holds: the planner's statistics of the ledger table are then those of a table with rows, as in
     * a deployment, not those of an empty one. Returns the ledgers written.
     */
    long writeOpenHolds(BenchmarkKeys keys, int perKey) {
        long rows = 0;
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement(INSERT_OPEN_HOLDS)) {
            for (int from = 0; from < keys.size(); from += KEYS_PER_STATEMENT) {
                insert.setString(1, BenchmarkKeys.CHANNEL);
                insert.setObject(2, utc(loadHour));
                setKeys(insert, 3, connection, keys, from, Math.min(keys.size(), from + KEYS_PER_STATEMENT));
                insert.setInt(5, perKey);
                insert.setObject(6, utc(loadHour));
                rows += insert.executeUpdate();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Writing open holds failed", e);
        }
        return rows;
    }

    /**
     * Writes decisions past retention and deletes them as the archiver would, so that the request log
     * has the free space of a log at its steady size, which the next VACUUM (settle()) records. Returns
     * the rows written.
     */
    long writeAndDeleteOldDecisions(BenchmarkKeys keys, int perKey) {
        Instant hour = loadHour.minus(40, ChronoUnit.DAYS);
        long rows = 0;
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement(INSERT_OLD_DECISIONS)) {
            for (int from = 0; from < keys.size(); from += KEYS_PER_STATEMENT) {
                int to = Math.min(keys.size(), from + KEYS_PER_STATEMENT);
                insert.setString(1, BenchmarkKeys.CHANNEL);
                insert.setString(2, OLD_USAGE);
                insert.setString(3, OLD_LIMITS);
                insert.setObject(4, utc(hour));
                setKeys(insert, 5, connection, keys, from, to);
                insert.setInt(7, perKey);
                rows += insert.executeUpdate();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Writing old decisions failed", e);
        }
        jdbc.update(DELETE_OLD_DECISIONS, utc(hour), BenchmarkKeys.CHANNEL);
        return rows;
    }

    /**
     * Pages that client sessions have added to tables and indexes, and written out of shared buffers
     * to make room, since the server started (pg_stat_io, PostgreSQL 16 and later). Both are left to the
     * kernel to write back; a new page is written to its file as zeros.
     */
    Optional<SessionWrites> sessionWrites() {
        try {
            return Optional.ofNullable(jdbc.queryForObject(
                    """
                    SELECT coalesce(sum(extends), 0) AS extended, coalesce(sum(writes), 0) AS written
                    FROM pg_stat_io WHERE backend_type = 'client backend'
                    """, (rs, row) -> new SessionWrites(rs.getLong("extended"), rs.getLong("written"))));
        } catch (DataAccessException olderThan16) {
            return Optional.empty();
        }
    }

    record SessionWrites(long extended, long written) {

        String since(SessionWrites earlier) {
            return String.format(
                    "%,d pages added to tables and indexes, %,d written out of shared buffers",
                    extended - earlier.extended, written - earlier.written);
        }
    }

    /**
     * The WAL written since the server started (pg_stat_wal, PostgreSQL 14 and later), full-page images
     * apart: after a checkpoint, the first change to each page logs the whole page. settle() checkpoints
     * before every phase, so a phase's first seconds log a full-page image for every bucket and index
     * page they touch; a latency phase's settling stretch takes them before it is measured.
     */
    Optional<WalWritten> walWritten() {
        try {
            return Optional.ofNullable(jdbc.queryForObject(
                    "SELECT wal_records, wal_fpi, wal_bytes FROM pg_stat_wal",
                    (rs, row) ->
                            new WalWritten(rs.getLong("wal_records"), rs.getLong("wal_fpi"), rs.getLong("wal_bytes"))));
        } catch (DataAccessException olderThan14) {
            return Optional.empty();
        }
    }

    record WalWritten(long records, long fullPageImages, long bytes) {

        String since(WalWritten earlier) {
            return String.format(
                    "%,d records, %,d of them full-page images, %.1f MB",
                    records - earlier.records, fullPageImages - earlier.fullPageImages, (bytes - earlier.bytes) / 1e6);
        }
    }

    /**
     * The pid of the server's postmaster, if this machine shows it: the first line of postmaster.pid in
     * its data directory, or else the parent of a session's backend; checked to be a running postgres
     * process (else ProcessCpu would count none of the server's CPU and report it idle).
     */
    synchronized OptionalLong postmasterPid() {
        if (postmaster == null) {
            OptionalLong fromPidFile = postmasterPidFile();
            postmaster = fromPidFile.isPresent() ? fromPidFile : parentOfABackend();
            if (postmaster.isPresent() && !ProcessCpu.isPostgres(postmaster.getAsLong())) {
                System.out.println("Benchmark: PostgreSQL's postmaster pid " + postmaster.getAsLong()
                        + " is no running postgres process: its CPU is not read");
            }
        }
        return postmaster;
    }

    private OptionalLong postmasterPidFile() {
        try {
            Path pidFile = Path.of(jdbc.queryForObject("SHOW data_directory", String.class), "postmaster.pid");
            return OptionalLong.of(
                    Long.parseLong(Files.readAllLines(pidFile).get(0).strip()));
        } catch (IOException | RuntimeException unreadable) {
            return OptionalLong.empty();
        }
    }

    private OptionalLong parentOfABackend() {
        Long backend = jdbc.queryForObject("SELECT pg_backend_pid()::bigint", Long.class);
        return backend == null ? OptionalLong.empty() : ProcessCpu.parentOf(backend);
    }

    /**
     * What the server has done since it started, in the units a decision's cost is counted in: the WAL
     * position (pg_current_wal_lsn), the full-page images written to the WAL (pg_stat_wal, PostgreSQL 14
     * and later; -1 before) and the index scans begun on the indexes of the buckets and of the request
     * log (pg_stat_user_indexes.idx_scan: every scan a statement starts, one per probe of a nested loop).
     * The statistics are reported by each session when it goes idle, at most once a second
     * (PGSTAT_MIN_INTERVAL), so a reading taken at least that long after the work it counts is complete.
     */
    ServerCounters serverCounters() {
        return jdbc.queryForObject(
                """
                SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint AS wal_position,
                       (SELECT coalesce(sum(idx_scan), 0) FROM pg_stat_user_indexes
                        WHERE relname IN ('risk_hourly_chunk', 'risk_request_log'))::bigint AS index_scans,
                       statio.blocks_hit, statio.blocks_read
                FROM (SELECT coalesce(sum(heap_blks_hit + coalesce(idx_blks_hit, 0)), 0)::bigint AS blocks_hit,
                             coalesce(sum(heap_blks_read + coalesce(idx_blks_read, 0)), 0)::bigint AS blocks_read
                      FROM pg_statio_user_tables
                      WHERE relname IN ('risk_hourly_chunk', 'risk_request_log')) AS statio
                """,
                (rs, row) -> new ServerCounters(
                        rs.getLong("wal_position"),
                        fullPageImages(),
                        rs.getLong("index_scans"),
                        rs.getLong("blocks_hit"),
                        rs.getLong("blocks_read")));
    }

    private long fullPageImages() {
        try {
            Long images = jdbc.queryForObject("SELECT wal_fpi FROM pg_stat_wal", Long.class);
            return images == null ? -1 : images;
        } catch (DataAccessException olderThan14) {
            return -1;
        }
    }

    record ServerCounters(long walPosition, long fullPageImages, long indexScans, long blocksHit, long blocksRead) {}

    /**
     * The key set's buckets in a few sums: two phases that find the same start from the same history
     * (resetRunBuckets leaves none of a run's buckets, releases included). Not the rewrites: a release into
     * an earlier hour of the run counts one on the chunk that holds it, which may hold history too, and the
     * count stays (a remembered window start is read again once more, nothing else).
     */
    String bucketsFingerprint(BenchmarkKeys keys) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement("""
                        SELECT count(*) || ' buckets, amount ' || coalesce(sum(sum_amount), 0)
                               || ', count ' || coalesce(sum(tx_count), 0)
                               || ', running amount ' || coalesce(sum(running_amount), 0)
                        FROM risk_hourly_agg
                        WHERE entity_id = ANY (?::uuid[]) AND channel_code = ?
                        """)) {
            select.setArray(1, uuidArray(connection, keys.entityIds()));
            select.setString(2, BenchmarkKeys.CHANNEL);
            try (var rs = select.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Reading the buckets' sums failed", e);
        }
    }

    /** Removes what a run added to these keys, so the next run starts from the same history. */
    void resetRunBuckets(BenchmarkKeys keys) {
        NamedParameterJdbcTemplate named = new NamedParameterJdbcTemplate(jdbc);
        MapSqlParameterSource parameters = new MapSqlParameterSource()
                .addValue("loadHour", utc(loadHour))
                .addValue("loadHourNumber", Math.toIntExact(loadHour.getEpochSecond() / 3600))
                .addValue("entityIds", keys.entityIds().toArray(UUID[]::new))
                .addValue("channel", BenchmarkKeys.CHANNEL);
        named.update(DELETE_RUN_CHUNKS.formatted(KEY_BUCKETS, OF_THE_KEYS.formatted("chunk")), parameters);
        named.update(TRIM_RUN_BUCKETS.formatted(KEY_BUCKETS, OF_THE_KEYS.formatted("history")), parameters);
        named.update(DELETE_RUN_CHUNKS.formatted(SCOPE_BUCKETS, ""), parameters);
        named.update(TRIM_RUN_BUCKETS.formatted(SCOPE_BUCKETS, ""), parameters);
    }

    /**
     * Deletes the decisions the runs wrote, as the archiver deletes those past retention: a request log
     * at its steady size takes as many decisions as it gives up, and settle()'s VACUUM makes their space
     * free for the next phase's. So every phase writes into free space of the log's steady size, with
     * indexes of the same size, rather than the first phases into free space and the later ones onto a
     * log that grows by every phase before them.
     */
    void resetRunDecisions() {
        // with their ledgers, as the archiver deletes them: a hold of the run is neither expired by a later
        // phase's batch nor swept, nor its expiry sent, after the run
        jdbc.update(DELETE_RUN_LEDGERS, BenchmarkKeys.CHANNEL, utc(loadHour));
        jdbc.update(DELETE_RUN_DECISIONS, BenchmarkKeys.CHANNEL, utc(loadHour));
    }

    /**
     * Vacuum, statistics and a checkpoint, so that no run pays for the writes of the one before it
     * (autovacuum after a bulk load, dirty pages flushed in the middle of a measurement), then the
     * buckets (a wide key set's history apart) and the request log read into shared buffers.
     */
    void settle() {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            connection.setAutoCommit(true);
            statement.execute("VACUUM (ANALYZE) risk_hourly_chunk");
            statement.execute("VACUUM (ANALYZE) risk_scope_hourly_chunk");
            statement.execute("VACUUM (ANALYZE) risk_request_log");
            statement.execute("VACUUM (ANALYZE) risk_authorization_ledger");
            statement.execute("CHECKPOINT");
            // a running service has its keys' recent buckets in memory; without this the first
            // seconds of a run read them from disk and the figures measure the cache, not the decider
            statement.execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm");
            // a wide key set's history is left out: a card portfolio's pages are mostly not in memory
            // (the primary keys' pages hold all key sets' entries and are read whole)
            statement.execute("SELECT pg_prewarm('risk_hourly_chunk_pkey')");
            statement.execute("SELECT pg_prewarm('risk_scope_hourly_chunk_pkey')");
            // the request log's free space is where the next phase writes its decisions
            statement.execute("""
                    SELECT pg_prewarm(indexrelid) FROM pg_index WHERE indrelid = 'risk_request_log'::regclass
                    UNION ALL SELECT pg_prewarm('risk_request_log')
                    """);
            for (String table : List.of(KEY_BUCKETS, SCOPE_BUCKETS)) {
                long[] wide = wideBlocks.get(table);
                if (wide == null) {
                    statement.execute("SELECT pg_prewarm('" + table + "')");
                } else {
                    prewarmBut(statement, table, wide);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Settling the database failed", e);
        }
    }

    // prewarms the table's main fork but the skipped blocks (ascending): the stretches between them
    private static void prewarmBut(Statement statement, String table, long[] skipped) throws SQLException {
        long from = 0;
        for (long block : skipped) {
            if (block > from) {
                statement.execute(
                        "SELECT pg_prewarm('%s', 'buffer', 'main', %d, %d)".formatted(table, from, block - 1));
            }
            from = block + 1;
        }
        statement.execute("""
                SELECT pg_prewarm('%1$s', 'buffer', 'main', %2$d, last_block)
                FROM (SELECT pg_relation_size('%1$s') / current_setting('block_size')::bigint - 1
                             AS last_block) AS relation
                WHERE last_block >= %2$d
                """.formatted(table, from));
    }

    /** Starts counting statement times afresh; false when pg_stat_statements is not loaded. */
    boolean resetStatementStats() {
        String loaded = jdbc.queryForObject("SHOW shared_preload_libraries", String.class);
        if (loaded == null || !loaded.contains("pg_stat_statements")) {
            return false;
        }
        jdbc.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        jdbc.execute("SELECT pg_stat_statements_reset()");
        return true;
    }

    /** The statements that took most server time since the reset, one line each. */
    List<String> topStatements(int limit) {
        return jdbc.query(
                """
                SELECT calls, round(total_exec_time) AS total_ms, round(mean_exec_time::numeric, 3) AS mean_ms,
                       round(total_plan_time) AS plan_ms, rows,
                       round(shared_blks_hit::numeric / greatest(calls, 1)) AS hit_per_call,
                       round(shared_blks_read::numeric / greatest(calls, 1)) AS read_per_call,
                       round(wal_bytes / 1024 / greatest(calls, 1)) AS wal_kb_per_call,
                       round(wal_fpi::numeric / greatest(calls, 1)) AS wal_fpi_per_call,
                       left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS query
                FROM pg_stat_statements
                ORDER BY total_exec_time + total_plan_time DESC
                LIMIT ?
                """,
                (rs, rowNum) -> String.format(
                        "%8d calls %8d ms %9.3f ms/call %7d ms planning %9d rows %7d hit %6d read %6d WAL kB %5d full pages"
                                + " /call  %s",
                        rs.getLong("calls"),
                        rs.getLong("total_ms"),
                        rs.getDouble("mean_ms"),
                        rs.getLong("plan_ms"),
                        rs.getLong("rows"),
                        rs.getLong("hit_per_call"),
                        rs.getLong("read_per_call"),
                        rs.getLong("wal_kb_per_call"),
                        rs.getLong("wal_fpi_per_call"),
                        rs.getString("query")),
                limit);
    }

    /** How many bucket updates PostgreSQL made in place (HOT, no index entries) since it started. */
    String bucketUpdates() {
        return jdbc.queryForObject("""
                SELECT n_tup_upd || ' chunk rows updated since the start, ' || n_tup_hot_upd || ' of them in place (HOT)'
                FROM pg_stat_user_tables
                WHERE relname = 'risk_hourly_chunk'
                """, String.class);
    }

    /** The keys from .. to as two array parameters, their entity ids at index and their directions after. */
    private static void setKeys(
            PreparedStatement statement, int index, Connection connection, BenchmarkKeys keys, int from, int to)
            throws SQLException {
        statement.setArray(index, uuidArray(connection, keys.entityIds().subList(from, to)));
        statement.setArray(
                index + 1,
                connection.createArrayOf(
                        "text", keys.directions().subList(from, to).toArray()));
    }

    private static Array uuidArray(Connection connection, List<UUID> ids) throws SQLException {
        return connection.createArrayOf("uuid", ids.toArray());
    }

    private static LocalDateTime utc(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
