package io.risklimits.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DecisionLogTest {

    @Test
    void aDecisionsVerdictAndTimeAreItsOwnNotThoseOfTheObjectsNestedInIt() {
        String decision = """
                {"dedupe_id": "6f1c1a9e-0000-4000-8000-000000000001", "amount": 1200,
                 "shadow": {"decision": "REJECTED", "decided_at": "2026-01-01T00:00:00Z"},
                 "usage": [{"window": "24h", "decision": "REJECTED"}],
                 "decision": "APPROVED", "reason": null, "decided_at": "2026-11-29T09:30:00.123Z",
                 "schema_version": 3}""";

        assertThat(DecisionLog.Message.of(decision.getBytes(StandardCharsets.UTF_8), true))
                .isEqualTo(new DecisionLog.Message(
                        "6f1c1a9e-0000-4000-8000-000000000001", "APPROVED", "2026-11-29T09:30:00.123Z"));
    }

    @Test
    void anEventIsReadForItsDedupeIdAlone() {
        String event = """
                {"dedupe_id": "6f1c1a9e-0000-4000-8000-000000000002", "decision": "not an event field"}""";

        assertThat(DecisionLog.Message.of(event.getBytes(StandardCharsets.UTF_8), false))
                .isEqualTo(new DecisionLog.Message("6f1c1a9e-0000-4000-8000-000000000002", null, null));
    }

    @Test
    void aMessageThatIsNoObjectHasNoDedupeId() {
        assertThat(DecisionLog.Message.of("[1, 2]".getBytes(StandardCharsets.UTF_8), true)
                        .dedupeId())
                .isNull();
    }
}
