package io.risklimits.decision;

import static io.risklimits.support.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.Gen;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class JsonObjectTextTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    // control characters, the two that JSON escapes by name, ASCII, and text beyond Latin-1 (no lone
    // surrogates: no text the writer is given has them)
    private static final Gen<String> TEXT = Gen.strings(
            Gen.oneOf(
                    Gen.chars((char) 0, (char) 0x1f),
                    Gen.chars("\"\\/"),
                    Gen.chars((char) 0x20, (char) 0x7f),
                    Gen.chars((char) 0x80, (char) 0xd7ff),
                    Gen.chars((char) 0xe000, (char) 0xffff)),
            0,
            40);

    @Test
    void everyStringReadsBackAsWrittenWhereverItStands() {
        forAll(2_000, TEXT, value -> {
            byte[] written = new JsonObjectText(16)
                    .string("first", value)
                    .startArray("list")
                    .element(value)
                    .element(null)
                    .endArray()
                    .startObject("nested")
                    .string("text", value)
                    .endObject()
                    .string("last", value)
                    .bytes();

            JsonNode read = JSON.readTree(written);
            assertThat(read.get("first").stringValue()).isEqualTo(value);
            assertThat(read.get("list").get(0).stringValue()).isEqualTo(value);
            assertThat(read.get("list").get(1).isNull()).isTrue();
            assertThat(read.get("nested").get("text").stringValue()).isEqualTo(value);
            assertThat(read.get("last").stringValue()).isEqualTo(value);
        });
    }

    @Test
    void controlCharactersAreEscapedAndNothingElseIs() {
        String text = new JsonObjectText(16).string("s", "a\"b\\c\nd\u0001é€").close();

        assertThat(text).isEqualTo("{\"s\":\"a\\\"b\\\\c\\nd\\u0001é€\"}");
    }

    @Test
    void valuesOfEveryKindAreSeparatedByCommasAtEveryLevel() {
        String text = new JsonObjectText(16)
                .number("n", 1)
                .number("absent", (Long) null)
                .bool("flag", true)
                .raw("doc", "{\"a\":1}")
                .startObject("empty")
                .endObject()
                .startArray("objects")
                .startObject()
                .number("x", 1)
                .endObject()
                .startObject()
                .string("y", null)
                .number("z", -2L)
                .endObject()
                .endArray()
                .startArray("none")
                .endArray()
                .string("end", "e")
                .close();

        assertThat(text)
                .isEqualTo("{\"n\":1,\"absent\":null,\"flag\":true,\"doc\":{\"a\":1},\"empty\":{},"
                        + "\"objects\":[{\"x\":1},{\"y\":null,\"z\":-2}],\"none\":[],\"end\":\"e\"}");
        assertThat(JSON.readTree(text.getBytes(StandardCharsets.UTF_8)).size()).isEqualTo(8);
    }
}
