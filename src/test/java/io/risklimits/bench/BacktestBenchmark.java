package io.risklimits.bench;

import io.risklimits.cli.OperatorCli;
import io.risklimits.support.TestInfrastructure;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Audit rows per second the backtest command replays: a history of -Dbench.backtest.keys keys x
 * -Dbench.backtest.rows-per-key rows over 30 days (default 10,000 x 100 = 1 million rows, every tenth
 * a reversal of the row before it), loaded set-based, then backtested over the whole period, twice
 * (the first run also warms the JIT and PostgreSQL's cache). Prints the figures; asserts nothing about
 * time. Run with {@code ./mvnw -B verify -Pbenchmark -Dit.test=BacktestBenchmark}.
 */
class BacktestBenchmark {

    private static final int KEYS = Integer.getInteger("bench.backtest.keys", 10_000);
    private static final int ROWS_PER_KEY = Integer.getInteger("bench.backtest.rows-per-key", 100);
    private static final Instant START = Instant.parse("2026-09-01T00:00:00Z");
    private static final Duration PERIOD = Duration.ofDays(30);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    // each key's rows spread evenly over the period; row n (n % 10 = 0) reverses half of row n - 1;
    // every seventh authorization was rejected, and a reversal of it too
    private static final String LOAD = """
            INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts, decision,
                                          amount, currency, decided_at, type, reverses, released_amount,
                                          released_count, remaining, decided_order)
            SELECT entity_id, 'BACKTEST_BENCH', CASE WHEN key % 2 = 0 THEN 'OUT' ELSE 'IN' END,
                   md5(key || ':' || n)::uuid, date_trunc('hour', decided_at AT TIME ZONE 'UTC'),
                   CASE WHEN n % 10 <> 0 THEN CASE WHEN n % 7 = 0 THEN 'REJECTED' ELSE 'APPROVED' END
                        WHEN (n - 1) % 7 = 0 THEN 'REJECTED' ELSE 'RELEASED' END,
                   CASE WHEN n % 10 <> 0 THEN amount ELSE previous_amount / 2 END,
                   'USD', decided_at,
                   CASE WHEN n % 10 <> 0 THEN 'AUTHORIZATION' ELSE 'REVERSAL' END,
                   CASE WHEN n % 10 <> 0 THEN NULL ELSE md5(key || ':' || (n - 1))::uuid END,
                   CASE WHEN n % 10 = 0 AND (n - 1) % 7 <> 0 THEN previous_amount / 2 END,
                   CASE WHEN n % 10 = 0 AND (n - 1) % 7 <> 0 THEN 0 END,
                   CASE WHEN n % 10 = 0 AND (n - 1) % 7 <> 0 THEN previous_amount - previous_amount / 2 END,
                   n % 5
            FROM (SELECT key, n, md5('backtest-bench:' || key)::uuid AS entity_id,
                         100 + (key * 31 + n * 17) % 5000 AS amount,
                         100 + (key * 31 + (n - 1) * 17) % 5000 AS previous_amount,
                         ?::timestamptz + make_interval(secs => (n - 1) * ? + key % 3600) AS decided_at
                  FROM generate_series(1, ?) AS key, generate_series(1, ?) AS n) AS event
            """;

    private static final String PROPOSED_LIMITS = """
            channel,direction,entity_id,window,max_amount,max_count
            *,*,,txn,4000,0
            *,*,,24h,12000,5
            *,OUT,,day,10000,4
            *,*,,week,50000,20
            *,IN,,month,150000,60
            """;

    private final TestInfrastructure infrastructure = TestInfrastructure.get();
    private final JdbcTemplate db = new JdbcTemplate(infrastructure.dataSource());

    @Test
    void auditRowsReplayedPerSecond() throws IOException {
        // the quick run answers for the decider alone, within its ten minutes
        Assumptions.assumeFalse(Boolean.getBoolean("bench.quick"), "not part of the quick run (-Dbench.quick)");
        long loadStarted = System.nanoTime();
        int rows = db.update(LOAD, START.toString(), (double) PERIOD.toSeconds() / ROWS_PER_KEY, KEYS, ROWS_PER_KEY);
        db.execute("VACUUM ANALYZE risk_request_log");
        System.out.printf(
                "Backtest: loaded %d audit rows (%d keys x %d) in %.1f s%n",
                rows, KEYS, ROWS_PER_KEY, (System.nanoTime() - loadStarted) / 1e9);
        Path limits = Files.createTempFile("backtest-bench", ".csv");
        Files.writeString(limits, PROPOSED_LIMITS);
        try {
            for (String run : new String[] {"first run", "second run"}) {
                report(run, backtest(limits));
            }
        } finally {
            Files.deleteIfExists(limits);
            // a million rows left behind would weigh on the decision benchmark's phases
            db.update("DELETE FROM risk_request_log WHERE channel_code = 'BACKTEST_BENCH'");
        }
    }

    private JsonNode backtest(Path limits) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long started = System.nanoTime();
        int exitCode = OperatorCli.run(
                new String[] {
                    "backtest",
                    "--limits=" + limits,
                    "--from=" + START,
                    "--to=" + START.plus(PERIOD).plus(Duration.ofHours(1)),
                    "--json",
                    // the history is filed on fixed dates and nothing archives it: this database keeps it all
                    "--retention=3650d",
                    "--jdbc-url=" + infrastructure.jdbcUrl(),
                    "--db-user=" + infrastructure.username(),
                    "--db-password=" + infrastructure.password()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        if (exitCode != 0) {
            throw new IllegalStateException("backtest exited with " + exitCode + ": " + err);
        }
        System.out.printf("Backtest: the command took %.1f s, start to end%n", (System.nanoTime() - started) / 1e9);
        return JSON.readTree(out.toString(StandardCharsets.UTF_8));
    }

    private static void report(String run, JsonNode result) {
        JsonNode totals = result.get("totals");
        System.out.printf(
                "Backtest (%s): %d rows read in %.2f s: %d rows/s; %d keys, %d authorizations replayed,"
                        + " %d approved->rejected, %d rejected->approved%n",
                run,
                result.get("rows_read").longValue(),
                result.get("seconds").doubleValue(),
                result.get("rows_per_second").longValue(),
                totals.get("keys").longValue(),
                totals.get("authorizations").longValue(),
                totals.get("approved_to_rejected").get("count").longValue(),
                totals.get("rejected_to_approved").get("count").longValue());
    }
}
