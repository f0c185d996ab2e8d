package io.risklimits.startup;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.risklimits.support.RunningService;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The real service refuses to start with an unsafe setting, naming the property, before it decides anything. */
class RefusedSettingsIT {

    @Test
    void aPoolSmallerThanItsThreadsStopsTheStart() {
        Map<String, Object> tooSmall = Map.of(
                "spring.datasource.hikari.maximum-pool-size", 4,
                "risk.decider.concurrency", 2,
                "risk.archiver.workers", 9);

        assertThatThrownBy(() -> RunningService.start(RunningService.Topics.unique(), tooSmall))
                .rootCause()
                .hasMessageContaining("Refusing to start")
                .hasMessageContaining("spring.datasource.hikari.maximum-pool-size is 4")
                .hasMessageContaining("at least 13");
    }

    @Test
    void tlsSwitchedOffTowardsAnotherHostStopsTheStart() {
        Map<String, Object> clearText =
                Map.of("spring.datasource.url", "jdbc:postgresql://db.example.invalid:5432/risk?sslmode=disable");

        assertThatThrownBy(() -> RunningService.start(RunningService.Topics.unique(), clearText))
                .rootCause()
                .hasMessageContaining("spring.datasource.url has sslmode=disable for host db.example.invalid");
    }
}
