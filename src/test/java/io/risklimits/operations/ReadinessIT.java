package io.risklimits.operations;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.Application;
import io.risklimits.local.LocalKafkaBroker;
import io.risklimits.support.FreePorts;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Readiness is about whether this worker can decide: a worker whose broker or database is gone is
 * not ready, and says which and why, while liveness (the process) stays UP, so an orchestrator stops
 * routing to it rather than restarting it. The test runs its own broker and database, to take them
 * away.
 */
class ReadinessIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path brokerData;

    @Test
    void aWorkerWithoutItsBrokerOrItsDatabaseIsNotReadyButLive() throws Exception {
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start()) {
            LocalKafkaBroker kafka = LocalKafkaBroker.start(FreePorts.next(), FreePorts.next(), brokerData, 3);
            try (ConfigurableApplicationContext service = new SpringApplicationBuilder(Application.class)
                    .web(WebApplicationType.SERVLET)
                    .run(
                            "--server.port=0",
                            "--spring.datasource.url=" + postgres.getJdbcUrl("postgres", "postgres"),
                            "--spring.datasource.username=postgres",
                            "--spring.kafka.bootstrap-servers=" + kafka.bootstrapServers(),
                            "--risk.topics.partitions=3")) {
                String base = "http://localhost:" + service.getEnvironment().getProperty("local.server.port");
                awaitHealth(base + "/actuator/health/readiness", "ready with both", "UP");
                JsonNode ready = get(base + "/actuator/health/readiness").body();
                assertThat(ready.at("/components/db/status").stringValue()).isEqualTo("UP");
                assertThat(ready.at("/components/kafka/status").stringValue()).isEqualTo("UP");

                kafka.stop();
                JsonNode withoutBroker = awaitHealth(base + "/actuator/health/readiness", "not ready", "DOWN");
                assertThat(withoutBroker.at("/components/kafka/status").stringValue())
                        .isEqualTo("DOWN");
                assertThat(withoutBroker.at("/components/kafka/details/error").stringValue())
                        .contains("cannot reach the Kafka brokers at " + kafka.bootstrapServers());
                assertThat(withoutBroker.at("/components/db/status").stringValue())
                        .isEqualTo("UP");
                assertThat(get(base + "/actuator/health/liveness").status()).isEqualTo(200);

                postgres.close();
                JsonNode withoutDatabase = Awaitility.await("the database reported DOWN")
                        .atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(500))
                        .until(
                                () -> get(base + "/actuator/health/readiness").body(),
                                health -> "DOWN"
                                        .equals(health.at("/components/db/status")
                                                .stringValue()));
                assertThat(withoutDatabase.at("/status").stringValue()).isEqualTo("DOWN");
                HealthAnswer live = get(base + "/actuator/health/liveness");
                assertThat(live.status()).isEqualTo(200);
                assertThat(live.body().at("/status").stringValue()).isEqualTo("UP");
            }
        }
    }

    private record HealthAnswer(int status, JsonNode body) {}

    private static JsonNode awaitHealth(String url, String alias, String status) {
        return Awaitility.await(alias)
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> get(url),
                        answer -> status.equals(answer.body().at("/status").stringValue()))
                .body();
    }

    private static HealthAnswer get(String url) throws Exception {
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return new HealthAnswer(response.statusCode(), JSON.readTree(response.body()));
    }
}
