package io.risklimits.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.OwnRows;
import io.risklimits.support.TestInfrastructure;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * explain of an authorization names every scope key it was counted at, read from its audit row: the
 * business key and the entity always, and the account's two scope keys when it carried an account.
 */
@ExtendWith(NoRowsLeftBehind.class)
class ExplainScopesIT {

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final String channel =
            "EXP_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();
    private final OwnRows rows = new OwnRows();
    private final UUID entity = rows.newEntity();

    @AfterEach
    void deleteTheirRows() {
        rows.deleteTheirRows(db);
    }

    @Test
    void anAuthorizationWithAnAccountShowsTheAccountAndTheFourScopeKeysItWasCountedAt() {
        UUID account = UUID.randomUUID();
        UUID dedupeId = logApprovedAuthorization(account);

        CliRun explained = explain(dedupeId);

        assertThat(explained.exitCode()).as(explained.toString()).isZero();
        assertThat(explained.out())
                .containsPattern("account_id\\s+" + account)
                .containsPattern("counted at\\s+key\\s+" + entity + ":" + channel + ":OUT")
                .containsPattern("\\s+entity\\s+" + entity + ":\\*:OUT")
                .containsPattern("\\s+account_channel\\s+" + account + ":" + channel + ":OUT")
                .containsPattern("\\s+account\\s+" + account + ":\\*:OUT");
    }

    @Test
    void anAuthorizationWithoutAnAccountWasCountedAtItsKeyAndItsEntityOnly() {
        UUID dedupeId = logApprovedAuthorization(null);

        CliRun explained = explain(dedupeId);

        assertThat(explained.exitCode()).as(explained.toString()).isZero();
        assertThat(explained.out())
                .containsPattern("account_id\\s+-")
                .containsPattern("counted at\\s+key\\s+" + entity + ":" + channel + ":OUT")
                .containsPattern("\\s+entity\\s+" + entity + ":\\*:OUT")
                .doesNotContain("account_channel");
    }

    @Test
    void aRejectedAuthorizationWasCountedNowhere() {
        UUID account = UUID.randomUUID();
        UUID dedupeId = UUID.randomUUID();
        db.update("""
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, reason, amount, currency, decided_at, account_id)
                VALUES (?, ?, 'OUT', ?, date_trunc('hour', now() AT TIME ZONE 'UTC'), 'REJECTED',
                        'ACCOUNT_LIMIT_24H_AMOUNT', 7, 'USD', now(), ?)
                """, entity, channel, dedupeId, account);

        CliRun explained = explain(dedupeId);

        assertThat(explained.exitCode()).as(explained.toString()).isZero();
        assertThat(explained.out())
                .containsPattern("account_id\\s+" + account)
                .containsPattern("counted at\\s+nowhere: not approved");
    }

    private UUID logApprovedAuthorization(UUID account) {
        UUID dedupeId = UUID.randomUUID();
        db.update("""
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, decided_at, account_id)
                VALUES (?, ?, 'OUT', ?, date_trunc('hour', now() AT TIME ZONE 'UTC'), 'APPROVED', 7, 'USD', now(), ?)
                """, entity, channel, dedupeId, account);
        return dedupeId;
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
