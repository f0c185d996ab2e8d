package io.risklimits.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.OwnRows;
import io.risklimits.support.TestInfrastructure;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * holds lists a business key's open holds from ledger rows written here as the decider files them: what
 * each authorized, captured and still holds, and when it expires; closed holds, final spends and other
 * keys' holds are not listed.
 */
@ExtendWith(NoRowsLeftBehind.class)
class HoldsCommandIT {

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final String channel =
            "HLD_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();
    private final OwnRows rows = new OwnRows();
    private final UUID entity = rows.newEntity();
    private final Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);

    @AfterEach
    void deleteTheirRows() {
        rows.deleteTheirRows(db);
    }

    @Test
    void listsTheKeysOpenHoldsByExpiryWithWhatEachAuthorizedCapturedAndHolds() {
        Instant sooner = hour.plus(1, ChronoUnit.DAYS);
        Instant later = hour.plus(5, ChronoUnit.DAYS);
        UUID incrementedAndCaptured = ledger("OUT", """
                [{"kind": "AUTHORIZATION", "hour": "%1$s", "amount": 1000, "released": 0},
                 {"kind": "INCREMENT", "hour": "%1$s", "amount": 500, "released": 0}]""", 500, "OPEN", later);
        UUID partlyReversed = ledger("OUT", """
                [{"kind": "AUTHORIZATION", "hour": "%1$s", "amount": 700, "released": 200}]""", 0, "OPEN", sooner);
        UUID overCaptured = ledger("OUT", """
                [{"kind": "AUTHORIZATION", "hour": "%1$s", "amount": 400, "released": 0},
                 {"kind": "OVER_CAPTURE", "hour": "%1$s", "amount": 100, "released": 0}]""", 500, "OPEN", later);
        UUID captured = ledger("OUT", """
                [{"kind": "AUTHORIZATION", "hour": "%1$s", "amount": 900, "released": 0}]""", 900, "CAPTURED", later);
        UUID finalSpend = ledger("OUT", """
                [{"kind": "AUTHORIZATION", "hour": "%1$s", "amount": 800, "released": 0}]""", 0, "OPEN", null);
        UUID otherDirection = ledger("IN", """
                [{"kind": "AUTHORIZATION", "hour": "%1$s", "amount": 600, "released": 0}]""", 0, "OPEN", later);

        CliRun listed = holds("--entity-id", entity.toString(), "--channel", channel, "--direction", "OUT");

        assertThat(listed.exitCode()).as(listed.toString()).isZero();
        assertThat(listed.out())
                .containsPattern("dedupe_id\\s+authorized\\s+captured\\s+held\\s+expires_at")
                .containsPattern(partlyReversed + "\\s+700\\s+0\\s+500\\s+" + sooner + "\n")
                .containsPattern(incrementedAndCaptured + "\\s+1500\\s+500\\s+1000\\s+" + later + "\n")
                .containsPattern(overCaptured + "\\s+400\\s+500\\s+0\\s+" + later + "\n")
                .doesNotContain(captured.toString(), finalSpend.toString(), otherDirection.toString());
        assertThat(listedInOrder(listed, List.of(incrementedAndCaptured, overCaptured, partlyReversed)))
                .startsWith(partlyReversed);
    }

    @Test
    void aKeyWithoutOpenHoldsSaysSoAndSucceeds() {
        ledger("OUT", """
                [{"kind": "AUTHORIZATION", "hour": "%1$s", "amount": 900, "released": 900}]""", 0, "EXPIRED", hour);

        CliRun listed = holds("--entity-id", entity.toString(), "--channel", channel, "--direction", "OUT");

        assertThat(listed.exitCode()).as(listed.toString()).isZero();
        assertThat(listed.out()).contains("no open holds under " + entity + ":" + channel + ":OUT");
    }

    /** A ledger row under this test's entity and channel; %1$s in the parts is the authorization's hour. */
    private UUID ledger(String direction, String parts, long captured, String status, Instant expiresAt) {
        UUID dedupeId = UUID.randomUUID();
        LocalDateTime bucket = LocalDateTime.ofInstant(hour, ZoneOffset.UTC);
        db.update(
                """
                INSERT INTO risk_authorization_ledger (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                                       parts, captured, status, expires_at, count_hour)
                VALUES (?, ?, ?, ?, ?, CAST(? AS json), ?, ?, ?, ?)
                """,
                entity,
                channel,
                direction,
                dedupeId,
                bucket,
                parts.formatted(hour),
                captured,
                status,
                expiresAt == null ? null : expiresAt.atOffset(ZoneOffset.UTC),
                // an expired hold has given back all it held here, so nothing holds its count
                status.equals("EXPIRED") ? null : bucket);
        return dedupeId;
    }

    private static List<UUID> listedInOrder(CliRun run, List<UUID> dedupeIds) {
        return run.out()
                .lines()
                .flatMap(line -> dedupeIds.stream().filter(dedupeId -> line.startsWith(dedupeId.toString())))
                .toList();
    }

    private static CliRun holds(String... arguments) {
        TestInfrastructure infrastructure = TestInfrastructure.get();
        return CliRun.of(Stream.concat(
                        Stream.of("holds"),
                        Stream.concat(
                                Stream.of(arguments),
                                Stream.of(
                                        "--jdbc-url=" + infrastructure.jdbcUrl(),
                                        "--db-user=" + infrastructure.username(),
                                        "--db-password=" + infrastructure.password())))
                .toArray(String[]::new));
    }
}
