package io.risklimits.cli;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import picocli.CommandLine.Option;

/**
 * Where the commands find PostgreSQL. The defaults are the service's own settings (the same
 * environment variables), else the embedded database that {@code ./mvnw spring-boot:run} starts.
 */
final class DatabaseOptions {

    @Option(
            names = "--jdbc-url",
            defaultValue = "${env:SPRING_DATASOURCE_URL:-jdbc:postgresql://localhost:54329/postgres}",
            description = "PostgreSQL JDBC URL (default: $SPRING_DATASOURCE_URL, else the embedded database:"
                    + " ${DEFAULT-VALUE})")
    String jdbcUrl;

    @Option(
            names = "--db-user",
            defaultValue = "${env:SPRING_DATASOURCE_USERNAME:-postgres}",
            description = "database user (default: $SPRING_DATASOURCE_USERNAME, else postgres)")
    String user;

    // no ${DEFAULT-VALUE} in the help: it would print the password
    @Option(
            names = "--db-password",
            defaultValue = "${env:SPRING_DATASOURCE_PASSWORD:-}",
            description = "database password (default: $SPRING_DATASOURCE_PASSWORD; prefer it, a command line"
                    + " is visible to other users)")
    String password;

    Database open() {
        try {
            Connection connection = DriverManager.getConnection(jdbcUrl, user, password);
            return new Database(connection);
        } catch (SQLException unreachable) {
            throw new CommandFailed(
                    "cannot connect to PostgreSQL at " + jdbcUrl + ": " + FailureMessages.describe(unreachable));
        }
    }
}
