package io.risklimits.limits;

import static io.risklimits.support.PropertyCheck.forAll;
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
import io.risklimits.support.Gen;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

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

    /** How many draws a list makes for one element before it settles for the elements it has. */
    private static final int UNIQUE_ELEMENT_DRAWS = 1000;

    /** One try's draw: a table, a business key, the event's account if it names one, its usage and amount. */
    private record Sample(List<LimitRow> rows, BusinessKey key, Optional<UUID> account, Usage usage, long amount) {}

    @Test
    void theShadowSetIsTheEnforcedSetOfTheTableAfterPromoteAtEveryScope() {
        Gen<List<LimitRow>> tables = tables();
        Gen<BusinessKey> keys = keys();
        Gen<Optional<UUID>> accounts = accounts();
        Gen<Usage> usages = usages();
        Gen<Long> amounts = amounts();
        Gen<Sample> samples = random -> new Sample(
                tables.next(random),
                keys.next(random),
                accounts.next(random),
                usages.next(random),
                amounts.next(random));
        forAll(1000, samples, sample -> {
            List<LimitRow> rows = sample.rows();
            BusinessKey key = sample.key();
            Optional<UUID> account = sample.account();
            Usage usage = sample.usage();
            long amount = sample.amount();
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
                    assertThat(limits.shadow().byWindow())
                            .as(scopeKey.toString())
                            .isEqualTo(promoted.byWindow());
                }
                checks.add(new ScopeCheck(scopeKey.scope(), usage, limits));
                checksAfterPromote.add(new ScopeCheck(scopeKey.scope(), usage, promoted));
            }
            Outcome shadow = LimitPolicy.decideShadow(amount, checks);
            if (shadow == null) {
                assertThat(LimitPolicy.decide(amount, checksAfterPromote))
                        .isEqualTo(LimitPolicy.decide(amount, checks));
            } else {
                assertThat(shadow).isEqualTo(LimitPolicy.decide(amount, checksAfterPromote));
            }
        });
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

    Gen<List<LimitRow>> tables() {
        Gen<Scope> scopes = Gen.of(Scope.values());
        Gen<String> channels = Gen.of("*", "CARD", "ACH");
        Gen<String> directions = Gen.of("*", "IN", "OUT");
        Gen<UUID> someOwners = Gen.of(OWNERS.get(0), OWNERS.get(1));
        Gen<UUID> owners = someOwners.orNull(0.6);
        Gen<Window> windows = Gen.of(WINDOWS);
        Gen<Long> maxAmounts = Gen.longs(0, 100);
        Gen<Long> maxCounts = Gen.longs(0, 5);
        Gen<LimitRow.Mode> modes = Gen.of(LimitRow.Mode.values());
        Gen<LimitRow> rows = random -> {
            Scope scope = scopes.next(random);
            String channel = channels.next(random);
            String direction = directions.next(random);
            UUID owner = owners.next(random);
            Window window = windows.next(random);
            long maxAmount = maxAmounts.next(random);
            long maxCount = maxCounts.next(random);
            LimitRow.Mode mode = modes.next(random);
            return new LimitRow(
                    scope.spansChannels() ? LimitRow.ANY : channel,
                    direction,
                    scope.ownedByAccount() ? null : owner,
                    window,
                    maxAmount,
                    maxCount,
                    mode,
                    scope,
                    scope.ownedByAccount() ? owner : null);
        };
        // one row per row scope, window and mode, as risk_limit_scope_idx guarantees
        return uniqueLists(
                rows,
                40,
                row -> Arrays.asList(
                        row.scope(),
                        row.channel(),
                        row.direction(),
                        row.entityId(),
                        row.accountId(),
                        row.window(),
                        row.mode()));
    }

    /**
     * Lists of 0 to maxSize elements, each size as likely, no two with the same key. If {@link
     * #UNIQUE_ELEMENT_DRAWS} draws in a row give no element of a new key, the list ends with the
     * elements it has.
     */
    private static <T> Gen<List<T>> uniqueLists(Gen<T> elements, int maxSize, Function<T, ?> key) {
        return random -> {
            int size = random.nextInt(maxSize + 1);
            List<T> list = new ArrayList<>(size);
            Set<Object> keys = new HashSet<>();
            while (list.size() < size) {
                T element = null;
                for (int draw = 0; draw < UNIQUE_ELEMENT_DRAWS && element == null; draw++) {
                    T candidate = elements.next(random);
                    if (keys.add(key.apply(candidate))) {
                        element = candidate;
                    }
                }
                if (element == null) {
                    break;
                }
                list.add(element);
            }
            return list;
        };
    }

    Gen<BusinessKey> keys() {
        Gen<UUID> entities = Gen.of(OWNERS);
        Gen<String> channels = Gen.of("CARD", "ACH", "WIRE");
        Gen<Direction> directions = Gen.of(Direction.values());
        return random -> new BusinessKey(entities.next(random), channels.next(random), directions.next(random));
    }

    Gen<Optional<UUID>> accounts() {
        Gen<UUID> owners = Gen.of(OWNERS);
        // an account eight events in ten
        return owners.orNull(0.2).map(Optional::ofNullable);
    }

    Gen<Usage> usages() {
        Gen<Long> amounts = Gen.longs(0, 100);
        Gen<Long> counts = Gen.longs(0, 5);
        Gen<Tally> tallies = random -> new Tally(amounts.next(random), counts.next(random));
        return random -> {
            Tally last24Hours = tallies.next(random);
            Tally day = tallies.next(random);
            Map<Window, Tally> byWindow = new EnumMap<>(Window.class);
            byWindow.put(Window.LAST_24_HOURS, last24Hours);
            byWindow.put(Window.DAY, day);
            return new Usage(byWindow);
        };
    }

    Gen<Long> amounts() {
        return Gen.longs(1, 100);
    }
}
