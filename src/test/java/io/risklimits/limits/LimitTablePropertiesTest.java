package io.risklimits.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.LimitPolicy;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Tally;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Window;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The shadow set of a key is the limit set that limits promote would leave: over random tables of
 * both modes, a key's shadow limits (and so its shadow outcome) are the enforced limits (and outcome)
 * of the same key once every scope's shadow rows are promoted. Few channels, entities and windows,
 * so that rows of every specificity meet on the same key and window.
 */
class LimitTablePropertiesTest {

    private static final List<UUID> ENTITIES = List.of(
            UUID.fromString("00000000-0000-0000-0000-00000000000a"),
            UUID.fromString("00000000-0000-0000-0000-00000000000b"),
            UUID.fromString("00000000-0000-0000-0000-00000000000c"));
    private static final List<Window> WINDOWS = List.of(Window.TXN, Window.LAST_24_HOURS, Window.DAY);

    @Property(tries = 1000)
    void theShadowSetIsTheEnforcedSetOfTheTableAfterPromote(
            @ForAll("tables") List<LimitRow> rows,
            @ForAll("keys") BusinessKey key,
            @ForAll("usages") Usage usage,
            @ForAll("amounts") long amount) {
        Limits limits = new LimitTable(rows).limitsFor(key);
        Limits afterPromote = new LimitTable(promoteEveryScope(rows)).limitsFor(key);

        assertThat(afterPromote.shadow()).isNull();
        if (limits.shadow() == null) {
            // no shadow row matches the key, so promote changes none of its limits
            assertThat(afterPromote.byWindow()).isEqualTo(limits.byWindow());
        } else {
            assertThat(limits.shadow().byWindow()).isEqualTo(afterPromote.byWindow());
            assertThat(LimitPolicy.decideShadow(amount, usage, limits))
                    .isEqualTo(LimitPolicy.decide(amount, usage, afterPromote));
        }
    }

    /**
     * risk_limit after limits promote of every scope that has shadow rows, as its statement leaves it:
     * each shadow row becomes the enforced row of its scope (channel, direction, entity) and window,
     * replacing the one there was; no shadow row is left; the other enforced rows stay.
     */
    static List<LimitRow> promoteEveryScope(List<LimitRow> rows) {
        Map<List<Object>, LimitRow> enforced = new LinkedHashMap<>();
        rows.stream()
                .filter(row -> row.mode() == LimitRow.Mode.ENFORCE)
                .forEach(row -> enforced.put(scopeAndWindow(row), row));
        rows.stream()
                .filter(row -> row.mode() == LimitRow.Mode.SHADOW)
                .forEach(row -> enforced.put(
                        scopeAndWindow(row),
                        new LimitRow(
                                row.channel(),
                                row.direction(),
                                row.entityId(),
                                row.window(),
                                row.maxAmount(),
                                row.maxCount())));
        return new ArrayList<>(enforced.values());
    }

    /** What risk_limit_scope_idx makes unique, without the mode. */
    private static List<Object> scopeAndWindow(LimitRow row) {
        return Arrays.asList(row.channel(), row.direction(), row.entityId(), row.window());
    }

    @Provide
    Arbitrary<List<LimitRow>> tables() {
        Arbitrary<LimitRow> rows = Combinators.combine(
                        Arbitraries.of("*", "CARD", "ACH"),
                        Arbitraries.of("*", "IN", "OUT"),
                        Arbitraries.of(ENTITIES.get(0), ENTITIES.get(1)).injectNull(0.6),
                        Arbitraries.of(WINDOWS),
                        Arbitraries.longs().between(0, 100),
                        Arbitraries.longs().between(0, 5),
                        Arbitraries.of(LimitRow.Mode.class))
                .as(LimitRow::new);
        // one row per scope, window and mode, as risk_limit_scope_idx guarantees
        return rows.list()
                .ofMaxSize(30)
                .uniqueElements(
                        row -> Arrays.asList(row.channel(), row.direction(), row.entityId(), row.window(), row.mode()));
    }

    @Provide
    Arbitrary<BusinessKey> keys() {
        return Combinators.combine(
                        Arbitraries.of(ENTITIES),
                        Arbitraries.of("CARD", "ACH", "WIRE"),
                        Arbitraries.of(Direction.class))
                .as(BusinessKey::new);
    }

    @Provide
    Arbitrary<Usage> usages() {
        Arbitrary<Tally> tallies = Combinators.combine(
                        Arbitraries.longs().between(0, 100), Arbitraries.longs().between(0, 5))
                .as(Tally::new);
        return Combinators.combine(tallies, tallies).as((last24Hours, day) -> {
            Map<Window, Tally> byWindow = new EnumMap<>(Window.class);
            byWindow.put(Window.LAST_24_HOURS, last24Hours);
            byWindow.put(Window.DAY, day);
            return new Usage(byWindow);
        });
    }

    @Provide
    Arbitrary<Long> amounts() {
        return Arbitraries.longs().between(1, 100);
    }
}
