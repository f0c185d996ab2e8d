package io.risklimits.decision;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which limits check a key's usage: a limit on a window of usage, enforced or in the shadow set. */
class LimitsTest {

    private static final Limit SOME = new Limit(1_000L, 5L);

    @Test
    void noLimitAndATxnCapAloneCheckNoUsage() {
        assertThat(Limits.NONE.checkUsage()).isFalse();
        assertThat(new Limits(Map.of(Window.TXN, SOME)).checkUsage()).isFalse();
    }

    @Test
    void aLimitOnAnyWindowOfUsageChecksIt() {
        for (Window window : Window.USAGE_WINDOWS) {
            assertThat(new Limits(Map.of(window, SOME)).checkUsage())
                    .as(window.name())
                    .isTrue();
            assertThat(new Limits(Map.of(Window.TXN, SOME, window, SOME)).checkUsage())
                    .as(window.name())
                    .isTrue();
        }
    }

    @Test
    void aShadowLimitChecksUsageThatNoEnforcedLimitDoes() {
        assertThat(Limits.NONE
                        .withShadow(new Limits(Map.of(Window.LAST_7_DAYS, SOME)))
                        .checkUsage())
                .isTrue();
        assertThat(Limits.NONE.withShadow(new Limits(Map.of(Window.TXN, SOME))).checkUsage())
                .isFalse();
    }
}
