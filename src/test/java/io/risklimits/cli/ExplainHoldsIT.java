package io.risklimits.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.hold.HoldTerms;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.OwnRows;
import io.risklimits.support.TestInfrastructure;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * explain of a hold and of its follow-ups, from audit rows and a ledger row written here as the decider
 * files them: a decision's hold fields, and an authorization's whole life (every follow-up that names
 * it, in the order decided, then what its ledger still counts and holds).
 */
@ExtendWith(NoRowsLeftBehind.class)
class ExplainHoldsIT {

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final String channel =
            "HLD_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();
    private final OwnRows rows = new OwnRows();
    private final UUID entity = rows.newEntity();
    private final UUID authorizationId = UUID.randomUUID();
    private final Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
    private final Instant expiresAt = hour.plus(3, ChronoUnit.DAYS);

    @AfterEach
    void deleteTheirRows() {
        rows.deleteTheirRows(db);
    }

    @Test
    void anOpenHoldShowsItsFollowUpsInDecidedOrderAndWhatItStillCountsAndHolds() {
        logAuthorization(expiresAt);
        UUID incrementId = UUID.randomUUID();
        UUID captureId = UUID.randomUUID();
        UUID reversalId = UUID.randomUUID();
        db.update("""
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, decided_at, decided_order, type,
                                              original, hold_expires_at)
                VALUES (?, ?, 'OUT', ?, ?, 'APPROVED', 200, 'USD', now() - interval '3 minutes', 0, 'INCREMENT',
                        ?, ?)
                """, entity, channel, incrementId, bucket(), authorizationId, timestamptz(expiresAt));
        db.update("""
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, decided_at, decided_order, type,
                                              original, final, captured, over_captured)
                VALUES (?, ?, 'OUT', ?, ?, 'CAPTURED', 300, 'USD', now() - interval '2 minutes', 0, 'CAPTURE',
                        ?, false, 300, 0)
                """, entity, channel, captureId, bucket(), authorizationId);
        // a reversal may name its original in original alone
        db.update("""
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, decided_at, decided_order, type,
                                              original, released_amount, released_count, remaining)
                VALUES (?, ?, 'OUT', ?, ?, 'RELEASED', 100, 'USD', now() - interval '1 minute', 0, 'REVERSAL',
                        ?, 100, 0, 1100)
                """, entity, channel, reversalId, bucket(), authorizationId);
        logLedger("""
                [{"kind": "AUTHORIZATION", "hour": "%1$s", "amount": 1000, "released": 0},
                 {"kind": "INCREMENT", "hour": "%1$s", "amount": 200, "released": 100}]""", 300, "OPEN", expiresAt, true);

        CliRun explained = explain(authorizationId);

        assertThat(explained.exitCode()).as(explained.toString()).isZero();
        assertThat(explained.out())
                .containsPattern(field("hold_expires_at", expiresAt))
                .containsPattern(incrementId + "\\s+INCREMENT\\s+APPROVED\\s+-\\s+200\\s")
                .containsPattern(captureId + "\\s+CAPTURE\\s+CAPTURED\\s+-\\s+300\\s+-\\s+300\\s+0\\s")
                .containsPattern(reversalId + "\\s+REVERSAL\\s+RELEASED\\s+-\\s+100\\s+100\\s")
                .containsPattern(field("status", "OPEN"))
                .containsPattern(field("expires_at", expiresAt))
                .containsPattern(field("counted", "1100"))
                .containsPattern(field("captured", "300"))
                .containsPattern(field("held", "800"))
                .contains("remaining: 1100 of 1200 still counted");
        assertThat(followUpsInOrder(explained, List.of(reversalId, captureId, incrementId)))
                .containsExactly(incrementId, captureId, reversalId);
    }

    @Test
    void anExpiredHoldListsItsExpiryAndHoldsNothing() {
        logAuthorization(expiresAt);
        UUID expiryId = HoldTerms.expiryId(authorizationId);
        db.update("""
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, decided_at, decided_order, type,
                                              original, hold_expires_at, released_amount, released_count,
                                              remaining)
                VALUES (?, ?, 'OUT', ?, ?, 'EXPIRED', 1000, 'USD', now(), 0, 'EXPIRY', ?, ?, 1000, 1, 0)
                """, entity, channel, expiryId, bucket(), authorizationId, timestamptz(expiresAt));
        logLedger("""
                [{"kind": "AUTHORIZATION", "hour": "%1$s", "amount": 1000, "released": 1000}]""", 0, "EXPIRED", expiresAt, false);

        CliRun explained = explain(authorizationId);

        assertThat(explained.exitCode()).as(explained.toString()).isZero();
        assertThat(explained.out())
                .containsPattern(expiryId + "\\s+EXPIRY\\s+EXPIRED\\s+-\\s+1000\\s+1000\\s")
                .containsPattern(field("status", "EXPIRED"))
                .containsPattern(field("counted", "0"))
                .containsPattern(field("held", "0"));
    }

    @Test
    void aCaptureShowsTheAuthorizationItTookFromAndWhatItCapturedAndCountedAnew() {
        UUID captureId = UUID.randomUUID();
        db.update("""
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, decided_at, decided_order, type,
                                              original, final, captured, over_captured)
                VALUES (?, ?, 'OUT', ?, ?, 'CAPTURED', 1250, 'USD', now(), 0, 'CAPTURE', ?, true, 1000, 250)
                """, entity, channel, captureId, bucket(), authorizationId);

        CliRun explained = explain(captureId);

        assertThat(explained.exitCode()).as(explained.toString()).isZero();
        assertThat(explained.out())
                .containsPattern(field("type", "CAPTURE"))
                .containsPattern(field("original", authorizationId))
                .containsPattern(field("final", "true"))
                .containsPattern(field("captured", "1000"))
                .containsPattern(field("over_captured", "250"))
                .doesNotContain("counted at");
    }

    private void logAuthorization(Instant holdExpiresAt) {
        db.update("""
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, decided_at, decided_order,
                                              hold_expires_at)
                VALUES (?, ?, 'OUT', ?, ?, 'APPROVED', 1000, 'USD', now() - interval '4 minutes', 0, ?)
                """, entity, channel, authorizationId, bucket(), timestamptz(holdExpiresAt));
    }

    /**
     * The authorization's ledger; %1$s in the parts is the authorization's hour, which holds its count of 1
     * while something of it is counted.
     */
    private void logLedger(String parts, long captured, String status, Instant ledgerExpiresAt, boolean counted) {
        db.update(
                """
                INSERT INTO risk_authorization_ledger (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                                       parts, captured, status, expires_at, count_hour)
                VALUES (?, ?, 'OUT', ?, ?, CAST(? AS json), ?, ?, ?, ?)
                """,
                entity,
                channel,
                authorizationId,
                bucket(),
                parts.formatted(hour),
                captured,
                status,
                timestamptz(ledgerExpiresAt),
                counted ? bucket() : null);
    }

    private LocalDateTime bucket() {
        return LocalDateTime.ofInstant(hour, ZoneOffset.UTC);
    }

    private static OffsetDateTime timestamptz(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    /** A line of name and value alone, as explain prints its fields. */
    private static String field(String name, Object value) {
        return "(?m)^\\s*" + name + "\\s+" + value + "$";
    }

    /** The given dedupe_ids in the order their lines appear in the output. */
    private static List<UUID> followUpsInOrder(CliRun run, List<UUID> followUps) {
        return run.out()
                .lines()
                .flatMap(line -> followUps.stream().filter(followUp -> line.startsWith(followUp.toString())))
                .toList();
    }

    private static CliRun explain(UUID dedupeId) {
        TestInfrastructure infrastructure = TestInfrastructure.get();
        return CliRun.of(
                "explain",
                dedupeId.toString(),
                "--jdbc-url=" + infrastructure.jdbcUrl(),
                "--db-user=" + infrastructure.username(),
                "--db-password=" + infrastructure.password());
    }
}
