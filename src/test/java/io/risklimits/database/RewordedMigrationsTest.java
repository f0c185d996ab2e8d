package io.risklimits.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.flywaydb.core.internal.resolver.ChecksumCalculator;
import org.flywaydb.core.internal.resource.StringResource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The checksums {@link RewordedMigrations} accepts: the earlier text of each migration is its current
 * text with the earlier wording of a few comment lines, so a database migrated with it has the same
 * schema; and the checksums are those Flyway computes of the two texts.
 */
class RewordedMigrationsTest {

    static final List<RewordedMigrations.Reworded> REWORDED = RewordedMigrations.REWORDED;

    private static final Map<String, String> FILES = Map.of(
            "1", "V1__decisions.sql",
            "2", "V2__archiver.sql",
            "3", "V3__least_privilege_roles.sql");

    /** Per version, the lines (numbered from 1) as the earlier text had them. */
    private static final Map<String, Map<Integer, String>> EARLIER_LINES = Map.of(
            "1",
            Map.ofEntries(
                    Map.entry(
                            2,
                            "-- with their seeded defaults, and the functions that lock business keys and begin a batched"
                                    + " decision."),
                    Map.entry(3, "-- Table and column names of the seed design are kept so operators can query them."),
                    Map.entry(
                            5,
                            "-- 64-bit hash of the business key, seeded with this product's namespace. It is the advisory"
                                    + " lock"),
                    Map.entry(
                            48,
                            "    -- how often the key's history up to this bucket was written after the fact (a release into an"),
                    Map.entry(
                            49,
                            "    -- earlier hour, or a write into an hour before the key's latest): a new bucket starts from its"),
                    Map.entry(
                            50,
                            "    -- predecessor's count, and a write into an earlier hour adds 1 to every later bucket. The"
                                    + " decider's"),
                    Map.entry(
                            51,
                            "    -- remembered window starts of a key stay valid while its latest bucket's count is unchanged."),
                    Map.entry(
                            197,
                            "-- second set evaluated beside the enforced one (the most specific shadow row, else the enforced"
                                    + " row),"),
                    Map.entry(198, "-- reported with each decision and never enforced."),
                    Map.entry(
                            116,
                            "-- The triggers keep the running totals right for every writer that does not write them itself"
                                    + " (the"),
                    Map.entry(
                            117,
                            "-- per-event mode, operators, bulk loads). A transaction whose statements maintain the totals"
                                    + " says so")),
            "2",
            Map.of(
                    2,
                    "-- disjoint ranges of the 64-bit business-key hash (the seed's yb_hash_code ranges). The two"
                            + " keyed"),
            "3",
            Map.of(1, "-- Least privilege for the running service (issue #5). Migrations run as the schema owner"));

    @ParameterizedTest
    @FieldSource("REWORDED")
    void theCurrentTextHasTheCurrentChecksum(RewordedMigrations.Reworded reworded) throws IOException {
        assertThat(checksum(String.join("\n", currentLines(reworded.version()))))
                .isEqualTo(reworded.checksum());
    }

    @ParameterizedTest
    @FieldSource("REWORDED")
    void theEarlierTextDiffersInCommentLinesAloneAndHasThePreviousChecksum(RewordedMigrations.Reworded reworded)
            throws IOException {
        List<String> lines = new ArrayList<>(currentLines(reworded.version()));
        EARLIER_LINES.get(reworded.version()).forEach((number, earlier) -> {
            String current = lines.get(number - 1);
            assertThat(current.strip())
                    .as("V%s line %d now", reworded.version(), number)
                    .startsWith("--");
            assertThat(earlier.strip())
                    .as("V%s line %d before", reworded.version(), number)
                    .startsWith("--");
            lines.set(number - 1, earlier);
        });

        assertThat(checksum(String.join("\n", lines))).isEqualTo(reworded.previousChecksum());
    }

    private static List<String> currentLines(String version) throws IOException {
        try (InputStream in = RewordedMigrationsTest.class.getResourceAsStream("/db/migration/" + FILES.get(version))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    private static int checksum(String text) {
        return ChecksumCalculator.calculate(new StringResource(text));
    }
}
