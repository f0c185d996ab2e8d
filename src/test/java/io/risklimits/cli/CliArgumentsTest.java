package io.risklimits.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Bad arguments are usage errors (exit code 2), found before anything connects to PostgreSQL or Kafka. */
class CliArgumentsTest {

    // nothing listens here: a command that got past its argument checks would fail with exit code 1
    private static final String NOWHERE = "--jdbc-url=jdbc:postgresql://127.0.0.1:1/postgres";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            frobnicate                                                                                        | Unmatched argument
            limits                                                                                            | Missing required subcommand
            limits set --channel CARD --direction OUT --window 24h --max-amount -1 --max-count 1             | --max-amount
            limits set --channel CARD --direction OUT --window 24h --max-amount 1 --max-count x              | --max-count
            limits set --channel CARD --direction OUT --window 12h --max-amount 1 --max-count 1              | expected txn, 24h, 7d, 30d, day, week or month but was '12h'
            limits set --channel card --direction OUT --window 24h --max-amount 1 --max-count 1              | 'card' is not a channel
            limits set --channel CARD --direction UP --window 24h --max-amount 1 --max-count 1               | expected IN, OUT or * but was 'UP'
            limits set --channel CARD --direction OUT --window 24h --max-amount 1 --max-count 1 --entity 42  | '42' is not a UUID
            limits set --channel CARD --direction OUT --window 24h --max-count 1                             | --max-amount
            limits unset --channel CARD --direction OUT                                                      | --window
            limits show --direction OUT                                                                      | need --channel
            limits show --channel CARD --entity 6f1c1a9e-3d2b-4c1e-9a47                                      | is not a UUID
            limits set --scope team --channel CARD --direction OUT --window 24h --max-amount 1 --max-count 1 | expected key, entity, account_channel or account but was 'team'
            limits set --channel CARD --direction OUT --window 24h --max-amount 1 --max-count 1 --account 6f1c1a9e-3d2b-4c1e-9a47-2b5f0c7d8e11 | --account is for the account_channel and account scopes
            limits set --scope entity --channel * --direction OUT --window 24h --max-amount 1 --max-count 1 --account 6f1c1a9e-3d2b-4c1e-9a47-2b5f0c7d8e11 | --account is for the account_channel and account scopes
            limits set --scope account --channel * --direction OUT --window 24h --max-amount 1 --max-count 1 --entity 6f1c1a9e-3d2b-4c1e-9a47-2b5f0c7d8e11 | --entity is for the key and entity scopes
            limits unset --scope account_channel --channel CARD --direction OUT --window 24h --entity 6f1c1a9e-3d2b-4c1e-9a47-2b5f0c7d8e11 | --entity is for the key and entity scopes
            limits set --scope entity --channel CARD --direction OUT --window 24h --max-amount 1 --max-count 1 | the entity scope takes --channel *: the entity and account scopes add up every channel
            limits promote --scope account --channel ATM --direction OUT                                    | the account scope takes --channel *: the entity and account scopes add up every channel
            limits show --scope entity --channel CARD                                                        | the entity scope takes no --channel: the entity and account scopes add up every channel
            limits show --account 6f1c1a9e-3d2b-4c1e-9a47-2b5f0c7d8e11 --channel CARD                        | --account is for the account_channel and account scopes
            limits show --scope account_channel --account 6f1c1a9e-3d2b-4c1e-9a47-2b5f0c7d8e11               | need --channel
            explain not-a-uuid                                                                               | 'not-a-uuid' is not a UUID
            explain                                                                                          | DEDUPE_ID
            holds --channel CARD --direction OUT                                                             | --entity-id
            holds --entity-id 42 --channel CARD --direction OUT                                              | '42' is not a UUID
            holds --entity-id 6f1c1a9e-3d2b-4c1e-9a47-2b5f0c7d8e11 --channel card --direction OUT           | 'card' is not a channel
            holds --entity-id 6f1c1a9e-3d2b-4c1e-9a47-2b5f0c7d8e11 --channel CARD                           | --direction
            archive --window-minutes 0                                                                       | --window-minutes must be 1 .. 1440
            archive --max-windows 0                                                                          | --max-windows must be 1 or more
            archive-status --retention soon                                                                  | expected a duration
            """)
    void badArgumentsExitWithTwoAndSayWhatIsWrong(String arguments, String message) {
        String[] words = arguments.split(" +");
        if (words[0].equals("archive")) {
            words = (arguments + " --bootstrap-servers 127.0.0.1:1").split(" +");
        } else if (words[0].equals("explain") || words[0].equals("archive-status") || words.length > 2) {
            words = (arguments + " " + NOWHERE).split(" +");
        }

        CliRun run = CliRun.of(words);

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
        assertThat(run.err())
                .as(run.toString())
                .contains(message)
                .contains("Usage:")
                .doesNotContain("\tat ");
        assertThat(run.out()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            bad line         | --from 2026-11-01T00:00:00Z --to 2026-11-02T00:00:00Z                           | line 3: 'card' is not a channel
            same scope twice | --from 2026-11-01T00:00:00Z --to 2026-11-02T00:00:00Z                           | line 4: a second row for channel CARD direction OUT entity * window 24h (the first is on line 2)
            short line       | --from 2026-11-01T00:00:00Z --to 2026-11-02T00:00:00Z                           | line 5: expected 6 fields
            channel of entity| --from 2026-11-01T00:00:00Z --to 2026-11-02T00:00:00Z                           | line 3: a limit of the entity scope has channel *
            unknown scope    | --from 2026-11-01T00:00:00Z --to 2026-11-02T00:00:00Z                           | line 2: no scope card: key, entity, account_channel or account
            scope row twice  | --from 2026-11-01T00:00:00Z --to 2026-11-02T00:00:00Z                           | line 3: a second row for scope account channel * direction OUT account * window 24h
            from after to    | --from 2026-11-02T00:00:00Z --to 2026-11-01T00:00:00Z                           | --from must be before --to
            from equals to   | --from 2026-11-01T00:00:00Z --to 2026-11-01T00:00:00Z                           | --from must be before --to
            not an instant   | --from 2026-11-01 --to 2026-11-02T00:00:00Z                                     | expected an ISO-8601 instant like 2026-11-01T00:00:00Z but was '2026-11-01'
            half-hour zone   | --from 2026-11-01T00:00:00Z --to 2026-11-02T00:00:00Z --time-zone Asia/Kolkata  | time zone Asia/Kolkata has the offset +05:30 from UTC, which is not a whole number of hours
            unknown zone     | --from 2026-11-01T00:00:00Z --to 2026-11-02T00:00:00Z --time-zone Mars/Olympus  | 'Mars/Olympus' is not a time zone
            """)
    void aBacktestWithBadArgumentsExitsWithTwoAndSaysWhatIsWrong(String file, String arguments, String message)
            throws IOException {
        Path limits = limitsFile(
                switch (file) {
                    case "bad line" -> "CARD,OUT,,24h,1000,10\ncard,OUT,,day,1000,10\n";
                    case "same scope twice" -> "CARD,OUT,,24h,1000,10\nCARD,OUT,,day,1000,10\nCARD,OUT,,24h,5,1\n";
                    case "short line" -> "CARD,OUT,,24h,1000,10\nCARD,IN,,24h,1000,10\n\nCARD,*,,txn,10\n";
                    case "channel of entity" -> "*,OUT,,24h,1000,10,entity,\nCARD,OUT,,24h,1000,10,entity,\n";
                    case "unknown scope" -> "*,OUT,,24h,1000,10,card,\n";
                    case "scope row twice" -> "*,OUT,,24h,1000,10,account,\n*,OUT,,24h,5,1,account,\n";
                    default -> "CARD,OUT,,24h,1000,10\n";
                });

        CliRun run = CliRun.of(("backtest --limits " + limits + " " + arguments + " " + NOWHERE).split(" +"));

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
        assertThat(run.err()).as(run.toString()).contains(message).doesNotContain("\tat ");
        assertThat(run.out()).isEmpty();
    }

    /** Rows of every scope are read; the command then fails only for want of a database. */
    @Test
    void aBacktestLimitsFileMayHoldRowsOfEveryScope() throws IOException {
        Path limits = limitsFile("""
                CARD,OUT,,24h,1000,10
                CARD,IN,,24h,1000,10,key,
                *,OUT,6f1c1a9e-3d2b-4c1e-9a47-2b5f0c7d8e11,day,5000,100,entity,
                CARD,OUT,,7d,9000,100,account_channel,7b75c0de-1f7a-4b8e-9d36-0c5a3c1e2f10
                *,*,,30d,20000,500,account,
                """);

        CliRun run = CliRun.of(("backtest --limits " + limits + " --from 2026-11-01T00:00:00Z --to 2026-11-02T00:00:00Z"
                        + " --time-zone UTC --retention 32d " + NOWHERE)
                .split(" +"));

        assertThat(run.err())
                .as(run.toString())
                .doesNotContain("expected 6 fields")
                .doesNotContain("Usage:");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    }

    @Test
    void aBacktestTakesItsTimeZoneFromTheServiceSettingsAsTheServiceDoes() throws IOException {
        Path limits = limitsFile("CARD,OUT,,day,1000,10\n");
        String previous = System.setProperty("risk.limits.time-zone", "Asia/Kolkata");
        CliRun run;
        try {
            run = CliRun.of(("backtest --limits " + limits + " --from 2026-11-01T00:00:00Z --to 2026-11-02T00:00:00Z "
                            + NOWHERE)
                    .split(" +"));
        } finally {
            if (previous == null) {
                System.clearProperty("risk.limits.time-zone");
            } else {
                System.setProperty("risk.limits.time-zone", previous);
            }
        }

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
        assertThat(run.err())
                .as(run.toString())
                .contains("risk.limits.time-zone", "time zone Asia/Kolkata has the offset +05:30")
                .doesNotContain("\tat ");
    }

    @Test
    void backtestHelpListsItsOptions() {
        CliRun run = CliRun.of("backtest", "--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("--limits=FILE", "--from=INSTANT", "--to=INSTANT", "--time-zone=ZONE", "--json");
    }

    @TempDir
    Path files;

    /** A limits file with a header line, then the given rows. */
    private Path limitsFile(String rows) throws IOException {
        Path file = files.resolve("limits.csv");
        Files.writeString(file, "channel,direction,entity_id,window,max_amount,max_count\n" + rows);
        return file;
    }

    @Test
    void anUnreachableDatabaseIsOneLineAndExitCodeOne() {
        CliRun run = CliRun.of("limits", "show", NOWHERE);

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
        assertThat(run.err())
                .as(run.toString())
                .startsWith(
                        "risk-limits limits show: cannot connect to PostgreSQL at jdbc:postgresql://127.0.0.1:1/postgres: ")
                .doesNotContain("\tat ");
        assertThat(run.err().lines()).hasSize(1);
    }

    @Test
    void helpListsTheCommandsAndExitsWithZero() {
        CliRun run = CliRun.of("help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out())
                .contains("limits", "explain", "holds", "archive", "archive-status", "send-event", "backtest");
    }

    private static final String AUTHORIZATION_ID = "7b75c0de-1f7a-4b8e-9d36-0c5a3c1e2f10";

    @Test
    void sendEventSendsACaptureWithItsOriginalAndFinalUnderTheAuthorizationsEntity() {
        JsonNode event = eventSent("--type=CAPTURE", "--original=" + AUTHORIZATION_ID, "--final=false", "--amount=700");

        assertThat(event.path("type").asString()).as(event.toString()).isEqualTo("CAPTURE");
        assertThat(event.path("original").asString()).as(event.toString()).isEqualTo(AUTHORIZATION_ID);
        assertThat(event.path("final").isBoolean()).as(event.toString()).isTrue();
        assertThat(event.path("final").booleanValue()).as(event.toString()).isFalse();
        assertThat(event.has("reverses")).as(event.toString()).isFalse();
        assertThat(event.has("hold_expires_at")).as(event.toString()).isFalse();
        // without --entity, where an authorization sent with --dedupe-id=AUTHORIZATION_ID was filed
        assertThat(event.path("entity_id").asString())
                .isEqualTo(UUID.nameUUIDFromBytes(AUTHORIZATION_ID.getBytes(StandardCharsets.UTF_8))
                        .toString());
    }

    @Test
    void sendEventLeavesFinalOutUnlessGivenSoTheContractsDefaultApplies() {
        JsonNode event = eventSent("--type=CAPTURE", "--original=" + AUTHORIZATION_ID);

        assertThat(event.has("final")).as(event.toString()).isFalse();
        assertThat(event.path("original").asString()).as(event.toString()).isEqualTo(AUTHORIZATION_ID);
    }

    @Test
    void sendEventSendsAnIncrementWithTheHoldExpiryAsGiven() {
        JsonNode event = eventSent(
                "--type=INCREMENT", "--original=" + AUTHORIZATION_ID, "--hold-expires-at=2026-12-01T10:00:00+01:00");

        assertThat(event.path("type").asString()).as(event.toString()).isEqualTo("INCREMENT");
        assertThat(event.path("original").asString()).as(event.toString()).isEqualTo(AUTHORIZATION_ID);
        assertThat(event.path("hold_expires_at").asString())
                .as(event.toString())
                .isEqualTo("2026-12-01T10:00:00+01:00");
        assertThat(event.has("final")).as(event.toString()).isFalse();
    }

    @Test
    void sendEventSendsAnAuthorizationThatNamesItsHoldExpiry() {
        JsonNode event = eventSent("--dedupe-id=" + AUTHORIZATION_ID, "--hold-expires-at=2026-12-01T09:00:00Z");

        assertThat(event.has("type")).as(event.toString()).isFalse();
        assertThat(event.path("hold_expires_at").asString())
                .as(event.toString())
                .isEqualTo("2026-12-01T09:00:00Z");
        assertThat(event.has("original")).as(event.toString()).isFalse();
    }

    /** Like every field of send-event, a final that is no boolean is sent as given: the service answers INVALID. */
    @Test
    void sendEventSendsAFinalThatIsNoBooleanAsGiven() {
        JsonNode event = eventSent("--type=CAPTURE", "--original=" + AUTHORIZATION_ID, "--final=maybe");

        assertThat(event.path("final").isString()).as(event.toString()).isTrue();
        assertThat(event.path("final").asString()).isEqualTo("maybe");
    }

    /** The event send-event would send for these arguments; nothing is sent. */
    private static JsonNode eventSent(String... arguments) {
        SendEventCommand command = new SendEventCommand();
        new CommandLine(command).parseArgs(arguments);
        return JsonMapper.builder().build().readTree(command.eventJson());
    }

    @Test
    void theServiceStartsForItsOwnSettingsAndTheCliForAnythingElse() {
        assertThat(OperatorCli.handles(new String[] {})).isFalse();
        assertThat(OperatorCli.handles(new String[] {"--risk.roles=archiver"})).isFalse();
        assertThat(OperatorCli.handles(new String[] {"limits", "show"})).isTrue();
        assertThat(OperatorCli.handles(new String[] {"send-event", "--amount=1200"}))
                .isTrue();
        assertThat(OperatorCli.handles(new String[] {"frobnicate"})).isTrue();
        assertThat(OperatorCli.handles(new String[] {"--help"})).isTrue();
        assertThat(OperatorCli.handles(new String[] {"--version"})).isTrue();
    }
}
