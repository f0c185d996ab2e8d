package io.risklimits.bench;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.util.DriverDataSource;
import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;

/**
 * Counts the service's round trips to PostgreSQL: every statement executed (a statement text of several
 * statements is sent as one message sequence with one sync, so it is one) and every commit and
 * rollback the driver sends (one of an open transaction), on every connection of the service's pool.
 * Given to the service under test as an extra configuration source: the pool stays the service's own,
 * with its settings; only the connections it opens come through a counting wrapper. Validation queries of idle connections are not counted.
 */
final class RoundTripCounting {

    private static final Set<String> EXECUTIONS = Set.of(
            "execute", "executeQuery", "executeUpdate", "executeLargeUpdate", "executeBatch", "executeLargeBatch");
    private static final Set<String> ENDINGS = Set.of("commit", "rollback");
    private static final Set<String> STATEMENT_FACTORIES = Set.of("createStatement", "prepareStatement", "prepareCall");

    /** The round trips the service has made since it started. */
    static final class RoundTrips {

        private final AtomicLong count = new AtomicLong();

        long count() {
            return count.get();
        }
    }

    @Bean
    RoundTrips roundTrips() {
        return new RoundTrips();
    }

    /**
     * Static: a post-processor exists before the beans it processes. The pool's connections are opened
     * through the driver as the pool would open them (its URL, its data source properties, which the
     * service's own post-processors may have added to until the first connection), counted.
     */
    @Bean
    static BeanPostProcessor countingRoundTrips(ObjectProvider<RoundTrips> trips) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof HikariDataSource pool) {
                    pool.setDataSource(new CountingDataSource(pool, trips));
                }
                return bean;
            }
        };
    }

    /** Opens the pool's connections as the pool itself would, and wraps each in a counting one. */
    private static final class CountingDataSource implements DataSource {

        private final HikariDataSource pool;
        private final ObjectProvider<RoundTrips> trips;
        private DriverDataSource driver;

        CountingDataSource(HikariDataSource pool, ObjectProvider<RoundTrips> trips) {
            this.pool = pool;
            this.trips = trips;
        }

        private synchronized DriverDataSource driver() {
            if (driver == null) {
                driver = new DriverDataSource(
                        pool.getJdbcUrl(),
                        pool.getDriverClassName(),
                        pool.getDataSourceProperties(),
                        pool.getUsername(),
                        pool.getPassword());
            }
            return driver;
        }

        @Override
        public Connection getConnection() throws SQLException {
            return counting(driver().getConnection());
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            return counting(driver().getConnection(username, password));
        }

        private Connection counting(Connection connection) {
            AtomicLong count = trips.getObject().count;
            return (Connection) Proxy.newProxyInstance(
                    RoundTripCounting.class.getClassLoader(),
                    new Class<?>[] {Connection.class},
                    (proxy, method, args) -> {
                        if (ENDINGS.contains(method.getName())
                                && (args == null || args.length == 0)
                                && transactionOpen(connection)) {
                            count.incrementAndGet();
                        }
                        Object result = invoke(connection, method, args);
                        return STATEMENT_FACTORIES.contains(method.getName()) && result instanceof Statement statement
                                ? countingStatement(statement, count)
                                : result;
                    });
        }

        /**
         * Whether the driver has a transaction open, and so sends a commit or rollback: one committed by a
         * statement of its own (the decider's writes end with COMMIT) has none left to end.
         */
        private static boolean transactionOpen(Connection connection) throws SQLException {
            return connection.unwrap(BaseConnection.class).getTransactionState() != TransactionState.IDLE;
        }

        private static Statement countingStatement(Statement statement, AtomicLong count) {
            InvocationHandler handler = (proxy, method, args) -> {
                if (EXECUTIONS.contains(method.getName())) {
                    count.incrementAndGet();
                }
                return invoke(statement, method, args);
            };
            return (Statement) Proxy.newProxyInstance(
                    RoundTripCounting.class.getClassLoader(), new Class<?>[] {interfaceOf(statement)}, handler);
        }

        /** The JDBC interface of the driver's statement: CallableStatement, PreparedStatement or Statement. */
        private static Class<?> interfaceOf(Statement statement) {
            if (statement instanceof CallableStatement) {
                return CallableStatement.class;
            }
            return statement instanceof PreparedStatement ? PreparedStatement.class : Statement.class;
        }

        private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {}

        @Override
        public void setLoginTimeout(int seconds) {}

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException();
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> type) {
            return false;
        }
    }
}
