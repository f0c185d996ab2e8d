package io.risklimits.decision.store;

import io.risklimits.decision.Direction;
import io.risklimits.decision.Scope;
import io.risklimits.decision.ScopeKey;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;

/**
 * The two tables of hourly buckets, kept in chunks of up to 24 (V13), which differ only in the columns
 * of their key: risk_hourly_chunk holds the business keys' buckets ({@link Scope#KEY}), keyed by
 * entity_id, channel_code and direction_code; risk_scope_hourly_chunk the other scopes', keyed by scope,
 * owner_id, channel_code and direction_code. Each has a view of a row per key and hour (risk_hourly_agg,
 * risk_scope_hourly_agg) through which any write keeps the running totals. Their statements are written
 * once, as templates in which
 * <ul>
 *   <li>{@code {table}} is the table of chunks, {@code {view}} its view of a row per hour,
 *   <li>{@code {columns}} the key's columns, as in a column list,
 *   <li>{@code {alias.columns}} the same, each qualified by the alias,
 *   <li>{@code {alias.key}} the key as a row, {@code (alias.column, ...)}: two keys are compared as rows,
 *       which the planner takes apart into one condition per column,
 *   <li>{@code {arrays}} the key's parameter arrays ({@link #parameters}), cast for unnest.
 * </ul>
 */
enum BucketTable {
    KEY_BUCKETS(
            "risk_hourly_chunk",
            "risk_hourly_agg",
            List.of("entity_id", "channel_code", "direction_code"),
            "CAST(:entityIds AS uuid[]), CAST(:channels AS text[]), CAST(:directions AS text[])"),
    SCOPE_BUCKETS(
            "risk_scope_hourly_chunk",
            "risk_scope_hourly_agg",
            List.of("scope", "owner_id", "channel_code", "direction_code"),
            "CAST(:scopes AS text[]), CAST(:ownerIds AS uuid[]), CAST(:channels AS text[]), CAST(:directions AS text[])");

    private static final Pattern QUALIFIED = Pattern.compile("\\{(\\w+)\\.(columns|key)}");

    private final String table;
    private final String view;
    private final List<String> columns;
    private final String arrays;
    // the statements are constants: each is rendered once per table, not once per batch
    private final Map<String, String> rendered = new ConcurrentHashMap<>();

    BucketTable(String table, String view, List<String> columns, String arrays) {
        this.table = table;
        this.view = view;
        this.columns = columns;
        this.arrays = arrays;
    }

    /** The table that holds the buckets of the scope key. */
    static BucketTable of(ScopeKey key) {
        return key.scope() == Scope.KEY ? KEY_BUCKETS : SCOPE_BUCKETS;
    }

    /** The statement of this table from its template. */
    String sql(String template) {
        return rendered.computeIfAbsent(template, this::render);
    }

    private String render(String template) {
        Matcher qualified = QUALIFIED.matcher(template);
        String rendered = qualified.replaceAll(match -> {
            String list = columns.stream()
                    .map(column -> match.group(1) + "." + column)
                    .collect(Collectors.joining(", "));
            return Matcher.quoteReplacement(match.group(2).equals("key") ? "(" + list + ")" : list);
        });
        return rendered.replace("{table}", table)
                .replace("{view}", view)
                .replace("{columns}", String.join(", ", columns))
                .replace("{arrays}", arrays);
    }

    /** The keys as the parallel arrays that {@code {arrays}} names, in the keys' order. */
    MapSqlParameterSource parameters(Collection<ScopeKey> keys) {
        UUID[] owners = new UUID[keys.size()];
        String[] scopes = new String[keys.size()];
        String[] channels = new String[keys.size()];
        String[] directions = new String[keys.size()];
        int i = 0;
        for (ScopeKey key : keys) {
            if (of(key) != this) {
                throw new IllegalArgumentException(key + " has no buckets in " + table);
            }
            owners[i] = key.owner();
            scopes[i] = key.scope().label();
            channels[i] = key.channel();
            directions[i] = key.direction().name();
            i++;
        }
        MapSqlParameterSource parameters =
                new MapSqlParameterSource().addValue("channels", channels).addValue("directions", directions);
        if (this == KEY_BUCKETS) {
            return parameters.addValue("entityIds", owners);
        }
        return parameters.addValue("scopes", scopes).addValue("ownerIds", owners);
    }

    /** The scope key of a result row that holds this table's key columns, unqualified. */
    ScopeKey scopeKey(ResultSet rs) throws SQLException {
        String channel = rs.getString("channel_code");
        Direction direction = Direction.valueOf(rs.getString("direction_code"));
        if (this == KEY_BUCKETS) {
            return new ScopeKey(Scope.KEY, rs.getObject("entity_id", UUID.class), channel, direction);
        }
        return new ScopeKey(
                Scope.fromLabel(rs.getString("scope")), rs.getObject("owner_id", UUID.class), channel, direction);
    }
}
