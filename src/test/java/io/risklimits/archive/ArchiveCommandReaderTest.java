package io.risklimits.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ArchiveCommandReaderTest {

    private static final String ID = "0b6f4c4e-7a43-4f38-a3f4-2d1b9f0e5c11";

    @Test
    void onlyTheCommandIdIsRequired() {
        assertThat(read("{\"command_id\":\"" + ID + "\"}"))
                .isEqualTo(new ArchiveCommandReader.Read.Command(
                        new ArchiveCommand(UUID.fromString(ID), 180, null, false)));
    }

    @Test
    void everyFieldIsRead() {
        assertThat(read("{\"command_id\":\"" + ID + "\",\"window_minutes\":60,\"max_windows\":3,\"dry_run\":true,"
                        + "\"note\":\"unknown fields are ignored\"}"))
                .isEqualTo(new ArchiveCommandReader.Read.Command(new ArchiveCommand(UUID.fromString(ID), 60, 3, true)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"not json", "[]", "{}", "{\"command_id\":42}", "{\"command_id\":\"not-a-uuid\"}"})
    void withoutAReadableCommandIdTheAnswerHasNone(String value) {
        assertThat(read(value))
                .isInstanceOfSatisfying(
                        ArchiveCommandReader.Read.Invalid.class,
                        invalid -> assertThat(invalid.commandId()).isNull());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "\"window_minutes\":0        | window_minutes",
                "\"window_minutes\":1441     | window_minutes",
                "\"window_minutes\":\"60\"   | window_minutes",
                "\"window_minutes\":1.5      | window_minutes",
                "\"max_windows\":0           | max_windows",
                "\"max_windows\":99999999999 | max_windows",
                "\"dry_run\":\"yes\"         | dry_run"
            })
    void aBrokenRuleIsNamedAndTheCommandIdKept(String field, String named) {
        assertThat(read("{\"command_id\":\"" + ID + "\"," + field + "}"))
                .isInstanceOfSatisfying(ArchiveCommandReader.Read.Invalid.class, invalid -> {
                    assertThat(invalid.commandId()).isEqualTo(UUID.fromString(ID));
                    assertThat(invalid.error()).startsWith(named);
                });
    }

    @Test
    void aRecordWithoutValueIsInvalid() {
        assertThat(ArchiveCommandReader.read(null)).isInstanceOf(ArchiveCommandReader.Read.Invalid.class);
    }

    private static ArchiveCommandReader.Read read(String value) {
        return ArchiveCommandReader.read(value.getBytes(StandardCharsets.UTF_8));
    }
}
