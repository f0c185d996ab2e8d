package io.risklimits.database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;
import org.flywaydb.core.api.configuration.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Lets a database migrated with an earlier wording of the comments of V1 to V3 start. Flyway validates
 * the checksum of every applied migration against the text it finds, and a reworded comment changes
 * the checksum though not the schema. So, before validation, the checksum stored for each of those
 * versions is set to that of the current text, only where it is exactly the checksum of the earlier
 * text, whose statements are the same (RewordedMigrationsTest checks that the two texts differ in
 * comment lines alone). Any other checksum is left as it is, for validation to refuse.
 *
 * <p>Runs on Flyway's connection, as the migrating role (spring.flyway.user, else the datasource
 * login), which owns the schema history; in the transaction Flyway runs callbacks in.
 */
@Component
class RewordedMigrations implements Callback {

    private static final Logger log = LoggerFactory.getLogger(RewordedMigrations.class);

    /**
     * One migration whose comments were reworded.
     *
     * @param previousChecksum the checksum Flyway computes of the earlier text, as a database migrated
     *     with it holds in its schema history
     * @param checksum the checksum Flyway computes of the current text
     */
    record Reworded(String version, int previousChecksum, int checksum) {}

    // version, checksum of the earlier text (in the repository's history), checksum of the current text
    static final List<Reworded> REWORDED = List.of(
            new Reworded("1", -7603423, -11468431),
            new Reworded("2", 1152016322, 215626450),
            new Reworded("3", 1255054436, 224106668));

    // only a migration that succeeded, run from its SQL text, carries the checksum of that text
    private static final String UPDATE_CHECKSUM = """
            UPDATE %s SET checksum = ?
            WHERE version = ? AND checksum = ? AND type = 'SQL' AND success
            """;

    @Override
    public boolean supports(Event event, Context context) {
        return event == Event.BEFORE_VALIDATE;
    }

    @Override
    public boolean canHandleInTransaction(Event event, Context context) {
        return true;
    }

    @Override
    public void handle(Event event, Context context) {
        String history = historyTable(context.getConfiguration());
        try {
            if (!exists(context.getConnection(), history)) {
                return;
            }
            try (PreparedStatement update =
                    context.getConnection().prepareStatement(UPDATE_CHECKSUM.formatted(history))) {
                for (Reworded reworded : REWORDED) {
                    update.setInt(1, reworded.checksum());
                    update.setString(2, reworded.version());
                    update.setInt(3, reworded.previousChecksum());
                    if (update.executeUpdate() > 0) {
                        log.info(
                                "Schema history: V{} was migrated with earlier comments; its checksum is now"
                                        + " that of the current text",
                                reworded.version());
                    }
                }
            }
        } catch (SQLException e) {
            throw new FlywayException("Could not update the checksums of reworded migrations in " + history, e);
        }
    }

    @Override
    public String getCallbackName() {
        return "reworded migration comments";
    }

    /** The schema history table as Flyway names it: in its default schema, else its first, else the current one. */
    static String historyTable(Configuration configuration) {
        String schema = configuration.getDefaultSchema();
        if (schema == null && configuration.getSchemas().length > 0) {
            schema = configuration.getSchemas()[0];
        }
        String table = quoted(configuration.getTable());
        return schema == null ? table : quoted(schema) + "." + table;
    }

    private static String quoted(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    private static boolean exists(Connection connection, String table) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            query.setString(1, table);
            try (ResultSet result = query.executeQuery()) {
                return result.next() && result.getBoolean(1);
            }
        }
    }
}
