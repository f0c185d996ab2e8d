package io.risklimits.backtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.cli.CliRun;
import io.risklimits.support.TestInfrastructure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The backtest command with a proposed account limit, against audit rows of two entities of one
 * account in the real PostgreSQL: their events are replayed together in decision order, each
 * authorization checked at its account, and a release given back there too. The keys are this test's
 * own channel's, reported under a proposed key row of that channel that limits nothing they do.
 */
class BacktestScopesIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Instant FROM = Instant.parse("2026-09-10T00:00:00Z");
    private static final Instant TO = Instant.parse("2026-09-11T00:00:00Z");

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final String channel =
            "BTS_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();
    private final UUID account = UUID.randomUUID();
    private final UUID entityA = UUID.randomUUID();
    private final UUID entityB = UUID.randomUUID();

    @TempDir
    Path files;

    @AfterEach
    void deleteTheRows() {
        db.update("DELETE FROM risk_request_log WHERE channel_code = ?", channel);
    }

    @Test
    void twoEntitiesOfOneAccountAreDecidedTogetherAgainstTheAccountsLimit() throws IOException {
        UUID first = authorization(entityA, "APPROVED", 600, FROM.minus(2, ChronoUnit.HOURS));
        // B decided before A's next one: across keys, decided_at orders them
        authorization(entityB, "APPROVED", 300, FROM.plus(1, ChronoUnit.HOURS)); // 600 + 300 fits
        authorization(entityA, "APPROVED", 200, FROM.plus(2, ChronoUnit.HOURS)); // 900 + 200 > 1000
        reversal(entityA, first, 600, FROM.plus(3, ChronoUnit.HOURS)); // carries no account: releases anyway
        rejected(entityB, "ACCOUNT_LIMIT_24H_AMOUNT", 700, FROM.plus(4, ChronoUnit.HOURS)); // 300 + 700 fits now

        CliRun run = backtest(channel + ",OUT,,txn,100000000,0\n" + "*,OUT,,24h,1000,100,account," + account + "\n");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        JsonNode ours = ourScope(JSON.readTree(run.out()));
        assertThat(ours.get("keys").longValue()).isEqualTo(2);
        assertThat(ours.get("authorizations").longValue()).isEqualTo(3);
        assertThat(ours.at("/approved_to_rejected/by_reason").toString())
                .as(ours.toString())
                .isEqualTo("{\"ACCOUNT_LIMIT_24H_AMOUNT\":{\"count\":1,\"amount\":200}}");
        assertThat(ours.at("/rejected_to_approved").toString())
                .as("the stored reason names the scope whose limit had rejected it")
                .isEqualTo("{\"count\":1,\"amount\":700,\"by_reason\":{\"ACCOUNT_LIMIT_24H_AMOUNT\":"
                        + "{\"count\":1,\"amount\":700}}}");
        assertThat(ours.at("/released_to_rejected/count").longValue()).isZero();
    }

    private JsonNode ourScope(JsonNode result) {
        for (JsonNode scope : result.get("scopes")) {
            JsonNode name = scope.get("scope");
            if (!name.isNull() && name.get("channel").stringValue().equals(channel)) {
                return scope;
            }
        }
        throw new AssertionError("no scope of channel " + channel + " in " + result);
    }

    private UUID authorization(UUID entity, String decision, long amount, Instant decidedAt) {
        UUID dedupeId = UUID.randomUUID();
        db.update(
                """
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, decided_at, account_id)
                VALUES (?, ?, 'OUT', ?, date_trunc('hour', CAST(? AS timestamptz) AT TIME ZONE 'UTC'), ?, ?, 'USD',
                        CAST(? AS timestamptz), ?)
                """, entity, channel, dedupeId, decidedAt.toString(), decision, amount, decidedAt.toString(), account);
        return dedupeId;
    }

    private void rejected(UUID entity, String reason, long amount, Instant decidedAt) {
        UUID dedupeId = authorization(entity, "REJECTED", amount, decidedAt);
        db.update("UPDATE risk_request_log SET reason = ? WHERE dedupe_id = ?", reason, dedupeId);
    }

    private void reversal(UUID entity, UUID original, long amount, Instant decidedAt) {
        db.update(
                """
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, decided_at, type, reverses,
                                              released_amount, released_count, remaining)
                VALUES (?, ?, 'OUT', ?, date_trunc('hour', CAST(? AS timestamptz) AT TIME ZONE 'UTC'), 'RELEASED', ?,
                        'USD', CAST(? AS timestamptz), 'REVERSAL', ?, ?, 1, 0)
                """,
                entity,
                channel,
                UUID.randomUUID(),
                decidedAt.toString(),
                amount,
                decidedAt.toString(),
                original,
                amount);
    }

    private CliRun backtest(String rows) throws IOException {
        Path csv = files.resolve("limits.csv");
        Files.writeString(csv, "channel,direction,entity_id,window,max_amount,max_count,scope,account_id\n" + rows);
        TestInfrastructure infrastructure = TestInfrastructure.get();
        return CliRun.of(
                "backtest",
                "--limits",
                csv.toString(),
                "--from",
                FROM.toString(),
                "--to",
                TO.toString(),
                "--time-zone",
                "UTC",
                "--retention=3650d",
                "--json",
                "--jdbc-url=" + infrastructure.jdbcUrl(),
                "--db-user=" + infrastructure.username(),
                "--db-password=" + infrastructure.password());
    }
}
