package io.risklimits.support;

import java.util.UUID;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * A database of a test's own on the tests' server, migrated by Flyway from the current migrations and
 * dropped on close: for a test whose result depends on the state of the tables' pages, which in the
 * shared database every earlier test has written to and deleted from.
 */
public final class DatabaseOfItsOwn implements AutoCloseable {

    private final String name;
    private final String url;
    private final DriverManagerDataSource dataSource;

    private DatabaseOfItsOwn(String name) {
        TestInfrastructure infrastructure = TestInfrastructure.get();
        this.name = name;
        this.url = urlOf(name);
        this.dataSource = new DriverManagerDataSource(url, infrastructure.username(), infrastructure.password());
    }

    /** A new database named after the prefix, migrated as its owner (the tests' superuser). */
    public static DatabaseOfItsOwn migrated(String prefix) {
        String name = prefix + "_" + UUID.randomUUID().toString().substring(0, 8);
        server().execute("CREATE DATABASE " + name);
        DatabaseOfItsOwn database = new DatabaseOfItsOwn(name);
        Flyway.configure().dataSource(database.dataSource).load().migrate();
        return database;
    }

    /** Connections as the database's owner. */
    public DataSource dataSource() {
        return dataSource;
    }

    /**
     * The tests' server URL for this database, without a user= parameter: PgJDBC lets one in the URL win
     * over the username property, and a service's login must come from the property.
     */
    public String url() {
        return url;
    }

    @Override
    public void close() {
        server().execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }

    private static JdbcTemplate server() {
        return new JdbcTemplate(TestInfrastructure.get().dataSource());
    }

    private static String urlOf(String database) {
        return TestInfrastructure.get()
                .jdbcUrl()
                .replaceFirst("/[^/?]+(\\?|$)", "/" + database + "$1")
                .replaceAll("([?&])user=[^&]*&?", "$1")
                .replaceAll("[?&]$", "");
    }
}
