package io.risklimits.cli;

import java.sql.Connection;
import java.sql.SQLException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/** One connection for the life of a command (autocommit), with a JdbcClient over it for named parameters. */
final class Database implements AutoCloseable {

    private final Connection connection;
    private final JdbcClient jdbc;

    Database(Connection connection) {
        this.connection = connection;
        this.jdbc = JdbcClient.create(new SingleConnectionDataSource(connection, true));
    }

    JdbcClient jdbc() {
        return jdbc;
    }

    /** The connection itself, for a command that manages its own transaction (a streaming read). */
    Connection connection() {
        return connection;
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // the command is done; a failed close changes nothing for the operator
        }
    }
}
