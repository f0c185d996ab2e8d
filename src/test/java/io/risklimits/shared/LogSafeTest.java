package io.risklimits.shared;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Text from records reaches log lines and headers only through LogSafe: one line, bounded, visible escapes. */
class LogSafeTest {

    @Test
    void crAndLfAreEscapedSoALogLineCannotBeForged() {
        String forged = "key\r\n2026-11-23T10:00:00.000Z  INFO 1 --- [main] Approved everything";

        String safe = LogSafe.text(forged);

        assertThat(safe).doesNotContain("\r", "\n");
        assertThat(safe).isEqualTo("key\\u000d\\u000a2026-11-23T10:00:00.000Z  INFO 1 --- [main] Approved everything");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "\u0000",
                "\u0007",
                "\u0008",
                "\t",
                "\u000b",
                "\u000c",
                "\u001b[31mred",
                "\u007f",
                "\u0085",
                "\u009b",
                "\u2028",
                "\u2029"
            })
    void controlCharactersAndUnicodeLineBreaksAreEscaped(String raw) {
        String safe = LogSafe.text("a" + raw + "b");

        assertThat(safe).startsWith("a").endsWith("b").contains("\\u");
        assertThat(safe.codePoints())
                .noneMatch(c -> Character.isISOControl(c)
                        || Character.getType(c) == Character.LINE_SEPARATOR
                        || Character.getType(c) == Character.PARAGRAPH_SEPARATOR);
    }

    @Test
    void aHugeStringIsCutTo500CharactersBeforeEscaping() {
        String safe = LogSafe.text("x".repeat(1024 * 1024));

        assertThat(safe).hasSize(503).endsWith("...");
    }

    @Test
    void aHugeStringOfLineBreaksStaysBoundedAndOnOneLine() {
        String safe = LogSafe.text("\n".repeat(1024 * 1024));

        // each of the 500 kept characters becomes a six-character escape
        assertThat(safe).hasSize(500 * 6 + 3).doesNotContain("\n");
    }

    @Test
    void printableTextIncludingNonAsciiIsKeptAsItIs() {
        assertThat(LogSafe.text("CARD:OUT café 日本 😀")).isEqualTo("CARD:OUT café 日本 😀");
    }

    @Test
    void nullIsEmpty() {
        assertThat(LogSafe.text(null)).isEmpty();
    }
}
