package io.risklimits.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.TestInfrastructure;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * limits set, unset, show and promote at the entity, account_channel and account scopes, against the
 * real PostgreSQL of the test run. Every row names its own entity or account, or a channel of its own
 * (CLI_...), so it applies to no other test's keys; they are deleted at the end.
 */
class LimitsPerScopeIT {

    private static final List<String> CHANNELS = new ArrayList<>();
    private static final List<UUID> OWNERS = new ArrayList<>();

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());

    @AfterAll
    static void deleteTheLimits() {
        JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
        CHANNELS.forEach(channel -> db.update("DELETE FROM risk_limit WHERE channel = ?", channel));
        OWNERS.forEach(
                owner -> db.update("DELETE FROM risk_limit WHERE entity_id = ? OR account_id = ?", owner, owner));
    }

    @Test
    void aLimitIsSetAtEachScopeAndShownWithItsScopeAndOwner() {
        String channel = newChannel();
        UUID entity = newOwner();
        UUID account = newOwner();

        CliRun entityWide = succeeds("limits set --scope entity --channel * --direction OUT --entity " + entity
                + " --window 24h --max-amount 500 --max-count 5");
        succeeds("limits set --scope account_channel --channel " + channel + " --direction OUT --account " + account
                + " --window 24h --max-amount 600 --max-count 6");
        CliRun accountWide = succeeds("limits set --scope account --channel * --direction OUT --account " + account
                + " --window 24h --max-amount 700 --max-count 7");
        CliRun keyScope = succeeds("limits set --channel " + channel + " --direction OUT --entity " + entity
                + " --window 24h --max-amount 400 --max-count 4");

        assertThat(entityWide.out())
                .contains(
                        "set 24h limit of scope entity channel * direction OUT entity " + entity + ": max_amount 500");
        assertThat(accountWide.out())
                .contains("set 24h limit of scope account channel * direction OUT account " + account + ":");
        assertThat(keyScope.out())
                .as("the key scope, the default, is named as before")
                .contains("set 24h limit of channel " + channel + " direction OUT entity " + entity + ":");
        assertThat(db.queryForList(
                        "SELECT scope || ' ' || channel || ' ' || coalesce(entity_id::text, '-') || ' '"
                                + " || coalesce(account_id::text, '-') || ' ' || max_amount FROM risk_limit"
                                + " WHERE entity_id = ? OR account_id = ? ORDER BY max_amount",
                        String.class,
                        entity,
                        account))
                .containsExactly(
                        "key " + channel + " " + entity + " - 400",
                        "entity * " + entity + " - 500",
                        "account_channel " + channel + " - " + account + " 600",
                        "account * - " + account + " 700");
        CliRun all = succeeds("limits show");
        assertThat(all.out())
                .containsPattern(
                        "(?m)^key\\s+" + channel + "\\s+OUT\\s+" + entity + "\\s+-\\s+24h\\s+enforce\\s+400\\s+4\\s")
                .containsPattern("(?m)^entity\\s+\\*\\s+OUT\\s+" + entity + "\\s+-\\s+24h\\s+enforce\\s+500\\s+5\\s")
                .containsPattern("(?m)^account_channel\\s+" + channel + "\\s+OUT\\s+-\\s+" + account
                        + "\\s+24h\\s+enforce\\s+600\\s+6\\s")
                .containsPattern("(?m)^account\\s+\\*\\s+OUT\\s+-\\s+" + account + "\\s+24h\\s+enforce\\s+700\\s+7\\s");
    }

    @Test
    void showResolvesTheLimitsOfOneScopeKey() {
        String channel = newChannel();
        UUID account = newOwner();
        UUID entity = newOwner();
        succeeds("limits set --scope account_channel --channel " + channel + " --direction * --window 7d"
                + " --max-amount 9000 --max-count 90");
        succeeds("limits set --scope account_channel --channel " + channel + " --direction OUT --account " + account
                + " --window 24h --max-amount 600 --max-count 6");
        succeeds("limits set --scope entity --channel * --direction OUT --entity " + entity
                + " --window day --max-amount 300 --max-count 3");

        CliRun forAccount = succeeds(
                "limits show --scope account_channel --channel " + channel + " --direction OUT --account " + account);
        CliRun forOtherAccounts =
                succeeds("limits show --scope account_channel --channel " + channel + " --direction OUT");
        CliRun forEntity = succeeds("limits show --scope entity --direction OUT --entity " + entity);

        assertThat(forAccount.out())
                .contains("limits at scope account_channel for channel " + channel + ", direction OUT, account "
                        + account + ":")
                .containsPattern("24h\\s+600\\s+6\\s+scope account_channel channel " + channel
                        + " direction OUT account " + account)
                .containsPattern(
                        "7d\\s+9000\\s+90\\s+scope account_channel channel " + channel + " direction \\* account \\*");
        assertThat(forOtherAccounts.out())
                .contains("an account without an override")
                .containsPattern("24h\\s+unlimited\\s+unlimited\\s+none")
                .doesNotContain(account.toString());
        assertThat(forEntity.out())
                .contains("limits at scope entity for all channels, direction OUT, entity " + entity + ":")
                .containsPattern("day\\s+300\\s+3\\s+scope entity channel \\* direction OUT entity " + entity)
                .as("a key-scope row never applies at the entity scope")
                .containsPattern("24h\\s+unlimited\\s+unlimited\\s+none");
    }

    @Test
    void unsetAndPromoteActOnTheRowsOfTheirOwnScopeOnly() {
        String channel = newChannel();
        UUID account = newOwner();
        String accountScope = "--scope account --channel * --direction OUT --account " + account;
        String keyScope = "--channel " + channel + " --direction OUT";
        succeeds("limits set " + accountScope + " --window 24h --max-amount 700 --max-count 7");
        succeeds("limits set " + accountScope + " --window 24h --max-amount 300 --max-count 3 --shadow");
        succeeds("limits set " + accountScope + " --window 7d --max-amount 900 --max-count 9");
        succeeds("limits set " + keyScope + " --window 24h --max-amount 100 --max-count 1 --shadow");

        CliRun promote = succeeds("limits promote " + accountScope);
        CliRun unset = succeeds("limits unset " + accountScope + " --window 7d");

        assertThat(promote.out())
                .contains("enforced the shadow limits of scope account channel * direction OUT account " + account
                        + ": 24h");
        assertThat(unset.out())
                .contains("deleted the 7d limit row of scope account channel * direction OUT account " + account);
        assertThat(db.queryForList(
                        "SELECT scope || ' ' || window_name || ' ' || mode || ' ' || max_amount FROM risk_limit"
                                + " WHERE account_id = ? OR channel = ? ORDER BY scope",
                        String.class,
                        account,
                        channel))
                .containsExactly("account 24h enforce 300", "key 24h shadow 100");
        CliRun again = CliRun.of(withDatabase("limits promote " + accountScope));
        assertThat(again.exitCode()).as(again.toString()).isEqualTo(1);
        assertThat(again.err())
                .contains("no shadow limit rows for scope account channel * direction OUT account " + account);
    }

    private String newChannel() {
        String channel = "CLI_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();
        CHANNELS.add(channel);
        return channel;
    }

    private static UUID newOwner() {
        UUID owner = UUID.randomUUID();
        OWNERS.add(owner);
        return owner;
    }

    private static CliRun succeeds(String command) {
        CliRun run = CliRun.of(withDatabase(command));
        assertThat(run.exitCode()).as(run.toString()).isZero();
        return run;
    }

    private static String[] withDatabase(String command) {
        TestInfrastructure infrastructure = TestInfrastructure.get();
        return Stream.concat(
                        Stream.of(command.split(" +")),
                        Stream.of(
                                "--jdbc-url=" + infrastructure.jdbcUrl(),
                                "--db-user=" + infrastructure.username(),
                                "--db-password=" + infrastructure.password()))
                .toArray(String[]::new);
    }
}
