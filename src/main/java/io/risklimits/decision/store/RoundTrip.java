package io.risklimits.decision.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.jdbc.JdbcUpdateAffectedIncorrectNumberOfRowsException;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.jdbc.core.PreparedStatementCallback;
import org.springframework.jdbc.core.ResultSetExtractor;
import org.springframework.jdbc.core.SqlTypeValue;
import org.springframework.jdbc.core.StatementCreatorUtils;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterUtils;
import org.springframework.jdbc.core.namedparam.ParsedSql;
import org.springframework.util.ConcurrentLruCache;

/**
 * Statements sent to PostgreSQL together and answered together: one network round trip instead of
 * one per statement (the driver sends a statement text of several statements as one message
 * sequence with a single sync). The server runs them in the order added, each with its own snapshot
 * under READ COMMITTED, so a statement sees what the statements before it did and waited for (a
 * read added after a lock runs under the lock); the first that fails ends the round trip and the
 * statements after it do not run.
 *
 * <p>Each statement has its own named parameters: the same name in two statements is two parameters. A
 * UUID[] parameter is sent as the text of a uuid[] ({@link #uuidArrayText}), which every statement casts
 * to uuid[] (CAST(:ids AS uuid[])): the driver would escape each element of a UUID[] character by character,
 * for text that never needs it.
 */
final class RoundTrip {

    // the statements are constants: each is parsed for its parameters once, not once per batch
    private static final ConcurrentLruCache<String, ParsedSql> PARSED =
            new ConcurrentLruCache<>(64, sql -> NamedParameterUtils.parseSqlStatement(sql.strip()));

    private record Statement(String sql, Object[] values, ResultSetExtractor<?> reader, Answer<Object> answer) {}

    private static final MapSqlParameterSource EMPTY = new MapSqlParameterSource();

    private final JdbcOperations jdbc;
    private final List<Statement> statements = new ArrayList<>();
    private boolean ran;
    private boolean committed;

    RoundTrip(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    /** Adds a statement that returns rows; its answer can be read once the round trip has run. */
    @SuppressWarnings("unchecked")
    <T> Supplier<T> query(String sql, MapSqlParameterSource parameters, ResultSetExtractor<T> reader) {
        Answer<T> answer = new Answer<>();
        add(sql, parameters, reader, (Answer<Object>) answer);
        return answer;
    }

    /** Adds a statement whose answer is not read (its rows, if any, are dropped). */
    void execute(String sql, MapSqlParameterSource parameters) {
        add(sql, parameters, null, null);
    }

    /**
     * Adds a write that answers with one row, the count of rows it changed: the round trip fails unless it
     * changed exactly as many as expected (a row gone from where the batch read it fails the batch rather
     * than go unwritten). What names the write in the failure.
     */
    void executeChanging(String sql, MapSqlParameterSource parameters, int expected, String what) {
        query(sql, parameters, rs -> {
            rs.next();
            int changed = rs.getInt(1);
            if (changed != expected) {
                throw new JdbcUpdateAffectedIncorrectNumberOfRowsException(what, expected, changed);
            }
            return changed;
        });
    }

    /**
     * Adds the commit of the transaction, which runs only if every statement before it succeeded; the
     * last statement of the round trip.
     */
    void commit() {
        add("COMMIT", EMPTY, null, null);
        committed = true;
    }

    /** Sends the statements, waits for all the answers; once. */
    void run() {
        if (ran) {
            throw new IllegalStateException("a round trip runs once");
        }
        ran = true;
        if (statements.isEmpty()) {
            return;
        }
        StringJoiner sql = new StringJoiner(";\n");
        List<Object> values = new ArrayList<>();
        for (Statement statement : statements) {
            sql.add(statement.sql());
            values.addAll(List.of(statement.values()));
        }
        jdbc.execute(sql.toString(), (PreparedStatementCallback<Void>) prepared -> {
            for (int i = 0; i < values.size(); i++) {
                Object value = values.get(i) instanceof UUID[] uuids ? uuidArrayText(uuids) : values.get(i);
                StatementCreatorUtils.setParameterValue(prepared, i + 1, SqlTypeValue.TYPE_UNKNOWN, value);
            }
            readAnswers(prepared);
            return null;
        });
    }

    /**
     * The uuid[] input text of the UUIDs: {a,b,...}, a null one as NULL. A UUID's canonical text (hex digits
     * and hyphens) needs no quotes nor escapes in an array.
     */
    static String uuidArrayText(UUID[] uuids) {
        StringBuilder text = new StringBuilder(2 + uuids.length * 37).append('{');
        for (int i = 0; i < uuids.length; i++) {
            if (i > 0) {
                text.append(',');
            }
            text.append(uuids[i] == null ? "NULL" : uuids[i].toString());
        }
        return text.append('}').toString();
    }

    private void readAnswers(PreparedStatement prepared) throws SQLException {
        boolean rows = prepared.execute();
        for (Statement statement : statements) {
            if (statement.reader() != null) {
                if (!rows) {
                    throw new IllegalStateException("no rows for a query: " + statement.sql());
                }
                try (ResultSet resultSet = prepared.getResultSet()) {
                    statement.answer().set(statement.reader().extractData(resultSet));
                }
            }
            rows = prepared.getMoreResults();
        }
    }

    private void add(
            String sql, MapSqlParameterSource parameters, ResultSetExtractor<?> reader, Answer<Object> answer) {
        if (ran || committed) {
            throw new IllegalStateException(ran ? "the round trip has run" : "the round trip commits last");
        }
        ParsedSql parsed = PARSED.get(sql);
        statements.add(new Statement(
                NamedParameterUtils.substituteNamedParameters(parsed, parameters),
                NamedParameterUtils.buildValueArray(parsed, parameters, null),
                reader,
                answer));
    }

    private static final class Answer<T> implements Supplier<T> {
        private T value;
        private boolean set;

        void set(T value) {
            this.value = value;
            this.set = true;
        }

        @Override
        public T get() {
            if (!set) {
                throw new IllegalStateException("the round trip has not run");
            }
            return value;
        }
    }
}
