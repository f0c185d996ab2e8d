package io.risklimits.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ScenarioTest {

    private static final List<Scenario> GIVEN = List.of(Scenario.SHALLOW_HISTORY, Scenario.UNIFORM, Scenario.FX_MIX);

    @Test
    void oddRoundsRunTheScenariosInTheOrderGivenAndEvenRoundsTheOtherWayRound() {
        assertThat(Scenario.inRound(GIVEN, 1)).containsExactlyElementsOf(GIVEN);
        assertThat(Scenario.inRound(GIVEN, 2))
                .containsExactly(Scenario.FX_MIX, Scenario.UNIFORM, Scenario.SHALLOW_HISTORY);
        assertThat(Scenario.inRound(GIVEN, 3)).containsExactlyElementsOf(GIVEN);
    }

    @Test
    void reversingARoundLeavesTheGivenListAsItWas() {
        Scenario.inRound(GIVEN, 2);

        assertThat(GIVEN).containsExactly(Scenario.SHALLOW_HISTORY, Scenario.UNIFORM, Scenario.FX_MIX);
    }
}
