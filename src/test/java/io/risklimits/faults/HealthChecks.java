package io.risklimits.faults;

import java.net.http.HttpResponse;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Whether a worker's /actuator/health reflects a component going down and coming back. */
final class HealthChecks {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private HealthChecks() {}

    static Invariants.Check reports(WorkerProcess worker, String component, String status, String when) {
        String[] seen = {"no answer"};
        boolean reported;
        try {
            Awaitility.await()
                    .atMost(PATIENCE)
                    .pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions()
                    .until(() -> {
                        HttpResponse<String> health = worker.health();
                        JsonNode body = JSON.readTree(health.body());
                        seen[0] = health.statusCode() + " " + component + " "
                                + body.at("/components/" + component + "/status")
                                        .asString();
                        return seen[0].equals((status.equals("UP") ? 200 : 503) + " " + component + " " + status);
                    });
            reported = true;
        } catch (ConditionTimeoutException notReported) {
            reported = false;
        }
        return new Invariants.Check(
                "health reports " + component + " " + status + " (" + when + ")", reported, "last seen: " + seen[0]);
    }
}
