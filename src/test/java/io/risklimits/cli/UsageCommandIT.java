package io.risklimits.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.HourBoundary;
import io.risklimits.support.TestInfrastructure;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * usage shows, for one business key and account, every scope and window with its usage, limit, what is
 * left and when a calendar window starts again, from buckets and limit rows written here; figures by hand.
 */
class UsageCommandIT {

    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final String channel =
            "USG_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();
    private final UUID entity = UUID.randomUUID();
    private final UUID account = UUID.randomUUID();

    @AfterEach
    void deleteRows() {
        db.update(
                "DELETE FROM risk_limit WHERE channel = ? OR entity_id = ? OR account_id = ?",
                channel,
                entity,
                account);
        db.update("DELETE FROM risk_hourly_chunk WHERE entity_id = ?", entity);
        db.update("DELETE FROM risk_scope_hourly_chunk WHERE owner_id IN (?, ?)", entity, account);
    }

    @Test
    void showsEveryScopeAndWindowWithItsUsageLimitWhatIsLeftAndWhenItResets() {
        HourBoundary.awaitClearOfTheNextHour(Duration.ofMinutes(2));
        Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
        keyBucket(hour, 1_500, 2);
        keyBucket(hour.minus(3, ChronoUnit.DAYS), 4_000, 1);
        scopeBucket("entity", entity, "*", hour, 2_500, 3);
        scopeBucket("account_channel", account, channel, hour, 6_000, 4);
        limit("key", channel, entity, null, "txn", 5_000, 0);
        limit("key", channel, null, null, "24h", 10_000, 10);
        limit("key", channel, null, null, "7d", 50_000, 50);
        limit("key", channel, null, null, "day", 5_000, 5);
        limit("entity", "*", entity, null, "day", 3_000, 4);
        limit("account_channel", channel, null, account, "month", 100_000, 100);
        LocalDate today = LocalDate.now(NEW_YORK);
        Instant nextMidnight = today.plusDays(1).atStartOfDay(NEW_YORK).toInstant();
        Instant nextMonth =
                today.withDayOfMonth(1).plusMonths(1).atStartOfDay(NEW_YORK).toInstant();

        CliRun shown = CliRun.of(
                "usage",
                "--entity",
                entity.toString(),
                "--channel",
                channel,
                "--direction",
                "OUT",
                "--account",
                account.toString(),
                "--time-zone",
                NEW_YORK.getId(),
                "--jdbc-url",
                TestInfrastructure.get().jdbcUrl(),
                "--db-user",
                TestInfrastructure.get().username(),
                "--db-password",
                TestInfrastructure.get().password());

        assertThat(shown.exitCode()).as(shown.toString()).isZero();
        assertThat(shown.out())
                .contains("up to the hour " + hour)
                .containsPattern("scope\\s+window\\s+used_amount\\s+used_count\\s+max_amount\\s+max_count"
                        + "\\s+remaining_amount\\s+remaining_count\\s+resets_at")
                .containsPattern("\nkey\\s+txn\\s+-\\s+-\\s+5000\\s+-\\s+5000\\s+-\\s+-\n")
                .containsPattern("\nkey\\s+24h\\s+1500\\s+2\\s+10000\\s+10\\s+8500\\s+8\\s+-\n")
                .containsPattern("\nkey\\s+7d\\s+5500\\s+3\\s+50000\\s+50\\s+44500\\s+47\\s+-\n")
                .containsPattern("\nkey\\s+day\\s+1500\\s+2\\s+5000\\s+5\\s+3500\\s+3\\s+" + nextMidnight + "\n")
                .containsPattern(
                        "\nkey\\s+month\\s+\\d+\\s+\\d+\\s+unlimited\\s+unlimited\\s+unlimited\\s+unlimited\\s+"
                                + nextMonth + "\n")
                .containsPattern("\nentity\\s+day\\s+2500\\s+3\\s+3000\\s+4\\s+500\\s+1\\s+" + nextMidnight + "\n")
                .containsPattern("\naccount_channel\\s+month\\s+6000\\s+4\\s+100000\\s+100\\s+94000\\s+96\\s+"
                        + nextMonth + "\n")
                .containsPattern("\naccount\\s+24h\\s+0\\s+0\\s+unlimited\\s+");
        assertThat(shown.out())
                .contains(entity + ":" + channel + ":OUT")
                .contains(account + ":" + channel + ":OUT")
                .contains(account + ":*:OUT");
    }

    private void keyBucket(Instant hour, long amount, int count) {
        db.update(
                "INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count)"
                        + " VALUES (?, ?, 'OUT', ?, ?, ?)",
                entity,
                channel,
                LocalDateTime.ofInstant(hour, ZoneOffset.UTC),
                amount,
                count);
    }

    private void scopeBucket(String scope, UUID owner, String scopeChannel, Instant hour, long amount, int count) {
        db.update(
                "INSERT INTO risk_scope_hourly_agg (scope, owner_id, channel_code, direction_code, bucket_ts,"
                        + " sum_amount, tx_count) VALUES (?, ?, ?, 'OUT', ?, ?, ?)",
                scope,
                owner,
                scopeChannel,
                LocalDateTime.ofInstant(hour, ZoneOffset.UTC),
                amount,
                count);
    }

    private void limit(
            String scope, String limitChannel, UUID entityId, UUID accountId, String window, long amount, long count) {
        db.update(
                "INSERT INTO risk_limit (scope, channel, direction, entity_id, account_id, window_name, max_amount,"
                        + " max_count) VALUES (?, ?, 'OUT', ?, ?, ?, ?, ?)",
                scope,
                limitChannel,
                entityId,
                accountId,
                window,
                amount,
                count);
    }
}
