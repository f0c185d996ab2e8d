package io.risklimits.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class UnsafeSettingsTest {

    private static final String REMOTE = "jdbc:postgresql://db.internal:5432/risk";

    @Test
    void theDefaultsAreSafe() {
        // application.yml: pool 16, decider 2 threads, archiver 9 workers
        assertThat(UnsafeSettings.problems(settings(16, 2, 9, REMOTE, false))).isEmpty();
        assertThat(UnsafeSettings.connectionsNeeded(settings(16, 2, 9, REMOTE, false)))
                .isEqualTo(13);
    }

    @Test
    void aPoolSmallerThanTheThreadsThatHoldConnectionsIsRefusedNamingTheProperties() {
        assertThatThrownBy(() -> UnsafeSettings.refuseToStart(settings(12, 2, 9, REMOTE, false)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("spring.datasource.hikari.maximum-pool-size is 12")
                .hasMessageContaining("at least 13")
                .hasMessageContaining("risk.decider.concurrency 2")
                .hasMessageContaining("risk.archiver.workers 9");
    }

    @Test
    void onlyTheRolesThisProcessRunsCount() {
        assertThat(UnsafeSettings.problems(settings(3, 2, 0, REMOTE, false))).isEmpty();
        assertThat(UnsafeSettings.problems(settings(2, 2, 0, REMOTE, false))).hasSize(1);
        assertThat(UnsafeSettings.problems(settings(11, 0, 9, REMOTE, false))).isEmpty();
        assertThat(UnsafeSettings.problems(settings(10, 0, 9, REMOTE, false))).hasSize(1);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "jdbc:postgresql://db.internal:5432/risk?sslmode=disable",
                "jdbc:postgresql://10.0.0.7/risk?user=risk&sslmode=DISABLE",
                "jdbc:postgresql://[2001:db8::1]:5432/risk?sslmode=disable"
            })
    void tlsSwitchedOffTowardsAnotherHostIsRefused(String url) {
        assertThatThrownBy(() -> UnsafeSettings.refuseToStart(settings(16, 2, 9, url, false)))
                .hasMessageContaining("spring.datasource.url has sslmode=disable")
                .hasMessageContaining("risk.database.allow-insecure=true");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "jdbc:postgresql://localhost:54329/postgres?sslmode=disable",
                "jdbc:postgresql://127.0.0.1/risk?sslmode=disable",
                "jdbc:postgresql://[::1]/risk?sslmode=disable",
                "jdbc:postgresql://db.internal/risk?sslmode=verify-full",
                "jdbc:postgresql://db.internal/risk"
            })
    void tlsOffOnThisMachineOrNotSwitchedOffIsAllowed(String url) {
        assertThatCode(() -> UnsafeSettings.refuseToStart(settings(16, 2, 9, url, false)))
                .doesNotThrowAnyException();
    }

    @Test
    void anOperatorCanAllowAnInsecureDatabaseExplicitly() {
        String url = "jdbc:postgresql://db.internal/risk?sslmode=disable";

        assertThat(UnsafeSettings.problems(settings(16, 2, 9, url, true))).isEmpty();
    }

    private static UnsafeSettings.Settings settings(
            int pool, int deciderThreads, int archiverWorkers, String url, boolean allowInsecure) {
        return new UnsafeSettings.Settings(pool, deciderThreads, archiverWorkers, url, allowInsecure);
    }
}
