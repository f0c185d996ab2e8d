package io.risklimits.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.LimitPolicy;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Outcome;
import io.risklimits.decision.Scope;
import io.risklimits.decision.ScopeCheck;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Tally;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Window;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The shadow set of a key is the limit set that limits promote would leave: over random tables of
 * both modes and every scope, a scope key's shadow limits are the enforced limits of the same key once
 * every row scope's shadow rows are promoted, and the shadow outcome over the scopes an event counts
 * at is the outcome after promote. Few channels, owners and windows, so that rows of every specificity
 * meet on the same key and window; the owners serve as entities and accounts alike, so that an owner
 * id of one scope also appears at another.
 */
class LimitTablePropertiesTest {

    private static final List<UUID> OWNERS = List.of(
            UUID.fromString("00000000-0000-0000-0000-00000000000a"),
            UUID.fromString("00000000-0000-0000-0000-00000000000b"),
            UUID.fromString("00000000-0000-0000-0000-00000000000c"));
    private static final List<Window> WINDOWS = List.of(Window.TXN, Window.LAST_24_HOURS, Window.DAY);

    @Property(tries = 1000)
    void theShadowSetIsTheEnforcedSetOfTheTableAfterPromoteAtEveryScope(
            @ForAll("tables") List<LimitRow> rows,
            @ForAll("keys") BusinessKey key,
            @ForAll("accounts") Optional<UUID> account,
            @ForAll("usages") Usage usage,
            @ForAll("amounts") long amount) {
        LimitTable table = new LimitTable(rows);
        LimitTable afterPromote = new LimitTable(promoteEveryRowScope(rows));
        List<ScopeCheck> checks = new ArrayList<>();
        List<ScopeCheck> checksAfterPromote = new ArrayList<>();

        for (ScopeKey scopeKey : ScopeKey.countedAt(key, account.orElse(null))) {
            Limits limits = table.limitsFor(scopeKey);
            Limits promoted = afterPromote.limitsFor(scopeKey);
            assertThat(promoted.shadow()).isNull();
            if (limits.shadow() == null) {
                // no shadow row of this scope matches the key, so promote changes none of its limits
                assertThat(promoted.byWindow()).as(scopeKey.toString()).isEqualTo(limits.byWindow());
            } else {
                assertThat(limits.shadow().byWindow()).as(scopeKey.toString()).isEqualTo(promoted.byWindow());
            }
            checks.add(new ScopeCheck(scopeKey.scope(), usage, limits));
            checksAfterPromote.add(new ScopeCheck(scopeKey.scope(), usage, promoted));
        }
        Outcome shadow = LimitPolicy.decideShadow(amount, checks);
        if (shadow == null) {
            assertThat(LimitPolicy.decide(amount, checksAfterPromote)).isEqualTo(LimitPolicy.decide(amount, checks));
        } else {
            assertThat(shadow).isEqualTo(LimitPolicy.decide(amount, checksAfterPromote));
        }
    }

    /**
     * risk_limit after limits promote of every row scope that has shadow rows, as its statement leaves
     * it: each shadow row becomes the enforced row of its scope, channel, direction, owner and window,
     * replacing the one there was; no shadow row is left; the other enforced rows stay.
     */
    static List<LimitRow> promoteEveryRowScope(List<LimitRow> rows) {
        Map<List<Object>, LimitRow> enforced = new LinkedHashMap<>();
        rows.stream()
                .filter(row -> row.mode() == LimitRow.Mode.ENFORCE)
                .forEach(row -> enforced.put(rowScopeAndWindow(row), row));
        rows.stream()
                .filter(row -> row.mode() == LimitRow.Mode.SHADOW)
                .forEach(row -> enforced.put(
                        rowScopeAndWindow(row),
                        new LimitRow(
                                row.channel(),
                                row.direction(),
                                row.entityId(),
                                row.window(),
                                row.maxAmount(),
                                row.maxCount(),
                                LimitRow.Mode.ENFORCE,
                                row.scope(),
                                row.accountId())));
        return new ArrayList<>(enforced.values());
    }

    /** What risk_limit_scope_idx makes unique, without the mode. */
    private static List<Object> rowScopeAndWindow(LimitRow row) {
        return Arrays.asList(
                row.scope(), row.channel(), row.direction(), row.entityId(), row.accountId(), row.window());
    }

    @Provide
    Arbitrary<List<LimitRow>> tables() {
        Arbitrary<LimitRow> rows = Combinators.combine(
                        Arbitraries.of(Scope.class),
                        Arbitraries.of("*", "CARD", "ACH"),
                        Arbitraries.of("*", "IN", "OUT"),
                        Arbitraries.of(OWNERS.get(0), OWNERS.get(1)).injectNull(0.6),
                        Arbitraries.of(WINDOWS),
                        Arbitraries.longs().between(0, 100),
                        Arbitraries.longs().between(0, 5),
                        Arbitraries.of(LimitRow.Mode.class))
                .as((scope, channel, direction, owner, window, maxAmount, maxCount, mode) -> new LimitRow(
                        scope.spansChannels() ? LimitRow.ANY : channel,
                        direction,
                        scope.ownedByAccount() ? null : owner,
                        window,
                        maxAmount,
                        maxCount,
                        mode,
                        scope,
                        scope.ownedByAccount() ? owner : null));
        // one row per row scope, window and mode, as risk_limit_scope_idx guarantees
        return rows.list()
                .ofMaxSize(40)
                .uniqueElements(row -> Arrays.asList(
                        row.scope(),
                        row.channel(),
                        row.direction(),
                        row.entityId(),
                        row.accountId(),
                        row.window(),
                        row.mode()));
    }

    @Provide
    Arbitrary<BusinessKey> keys() {
        return Combinators.combine(
                        Arbitraries.of(OWNERS), Arbitraries.of("CARD", "ACH", "WIRE"), Arbitraries.of(Direction.class))
                .as(BusinessKey::new);
    }

    @Provide
    Arbitrary<Optional<UUID>> accounts() {
        return Arbitraries.of(OWNERS).optional(0.8);
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
