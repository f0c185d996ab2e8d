package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.ScopeKey;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;

/**
 * Rows as one array per column, one element per row in the rows' order: the named parameters of a
 * set-based statement that unnests them. The array types are the ones the statement casts from
 * (uuid[] from UUID[], bigint[] from Long[], text[] from String[]).
 */
final class ColumnArrays<T> {

    private final List<T> rows;
    private final MapSqlParameterSource parameters;

    private ColumnArrays(List<T> rows, MapSqlParameterSource parameters) {
        this.rows = rows;
        this.parameters = parameters;
    }

    /** The rows, starting with their business keys as :entityIds, :channels and :directions ({@link KeyArrays}). */
    static <T> ColumnArrays<T> keyed(List<T> rows, Function<? super T, BusinessKey> key) {
        return new ColumnArrays<>(
                rows, KeyArrays.of(rows.stream().map(key).toList()).parameters());
    }

    /**
     * The rows, starting with their scope keys as the arrays of the bucket table that holds them
     * ({@link BucketTable#parameters}).
     */
    static <T> ColumnArrays<T> keyedIn(BucketTable table, List<T> rows, Function<? super T, ScopeKey> key) {
        return new ColumnArrays<>(rows, table.parameters(rows.stream().map(key).toList()));
    }

    /** Adds the column :name, the value of each row. */
    <C> ColumnArrays<T> add(String name, Function<? super T, ? extends C> value, IntFunction<C[]> newArray) {
        parameters.addValue(name, rows.stream().map(value).toArray(newArray));
        return this;
    }

    /** Adds a parameter the whole statement shares. */
    ColumnArrays<T> with(String name, Object value) {
        parameters.addValue(name, value);
        return this;
    }

    /** Goes on with the columns of other rows, parallel to these (as many, in the same order). */
    <U> ColumnArrays<U> alongside(List<U> others) {
        if (others.size() != rows.size()) {
            throw new IllegalArgumentException(others.size() + " rows alongside " + rows.size());
        }
        return new ColumnArrays<>(others, parameters);
    }

    MapSqlParameterSource parameters() {
        return parameters;
    }
}
