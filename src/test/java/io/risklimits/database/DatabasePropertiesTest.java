package io.risklimits.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DatabasePropertiesTest {

    @Test
    void timeoutsMustBeSetBecauseZeroMeansNone() {
        assertThatThrownBy(() ->
                        new DatabaseProperties(Duration.ZERO, Duration.ofSeconds(30), Duration.ofSeconds(15), false))
                .hasMessageContaining("risk.database.lock-timeout");
        assertThatThrownBy(() -> new DatabaseProperties(
                        Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofMillis(-1), false))
                .hasMessageContaining("risk.database.idle-in-transaction-timeout");
    }

    @Test
    void theLockBoundIsTheLastStatementPlusTheIdleTimeout() {
        DatabaseProperties defaults =
                new DatabaseProperties(Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(15), false);

        assertThat(defaults.lockHoldBound()).isEqualTo(Duration.ofSeconds(45));
        assertThat(defaults.sessionOptions())
                .isEqualTo(
                        "-c lock_timeout=10000 -c statement_timeout=30000 -c idle_in_transaction_session_timeout=15000");
    }
}
