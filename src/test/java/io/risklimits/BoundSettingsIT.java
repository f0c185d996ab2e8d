package io.risklimits;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.support.RunningService;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskHolder;

/**
 * The listeners and the scheduled refreshes read their settings from the bound properties records:
 * what a deployment sets reaches them, and without a setting the record's default does.
 */
class BoundSettingsIT {

    @Test
    void theListenersAndTheRefreshesRunWithTheSettingsGiven() {
        RunningService.Topics topics = RunningService.Topics.unique();
        Map<String, Object> settings = Map.of(
                "risk.decider.concurrency",
                3,
                "risk.archiver.group-id",
                "risk-archiver-" + topics.suffix(),
                "risk.limits.refresh",
                "7s",
                "risk.archiver.metrics-refresh",
                "90s");
        try (RunningService service = RunningService.start(topics, settings)) {
            MessageListenerContainer decider = listener(service, "risk-decider");
            assertThat(((ConcurrentMessageListenerContainer<?, ?>) decider).getConcurrency())
                    .isEqualTo(3);
            assertThat(decider.getGroupId()).isEqualTo(topics.groupId());
            assertThat(decider.getContainerProperties().getTopics()).containsExactly(topics.transactions());

            MessageListenerContainer archiver = listener(service, "risk-archiver");
            assertThat(archiver.getGroupId()).isEqualTo("risk-archiver-" + topics.suffix());
            assertThat(archiver.getContainerProperties().getTopics()).containsExactly(topics.archiveCommands());

            assertThat(fixedDelay(service, "LimitCatalog.refresh")).isEqualTo(Duration.ofSeconds(7));
            assertThat(initialDelay(service, "LimitCatalog.refresh")).isEqualTo(Duration.ofSeconds(7));
            assertThat(fixedDelay(service, "ArchiverMetrics.refreshCursorLag")).isEqualTo(Duration.ofSeconds(90));
        }
    }

    @Test
    void withoutSettingsTheRecordsDefaultsApply() {
        try (RunningService service = RunningService.start(RunningService.Topics.unique())) {
            MessageListenerContainer decider = listener(service, "risk-decider");
            assertThat(((ConcurrentMessageListenerContainer<?, ?>) decider).getConcurrency())
                    .isEqualTo(2);
            assertThat(listener(service, "risk-archiver").getGroupId()).isEqualTo("risk-archiver");

            assertThat(fixedDelay(service, "LimitCatalog.refresh")).isEqualTo(Duration.ofSeconds(5));
            assertThat(initialDelay(service, "LimitCatalog.refresh")).isEqualTo(Duration.ofSeconds(5));
            assertThat(fixedDelay(service, "ArchiverMetrics.refreshCursorLag")).isEqualTo(Duration.ofSeconds(60));
        }
    }

    private static MessageListenerContainer listener(RunningService service, String id) {
        return service.bean(KafkaListenerEndpointRegistry.class).getListenerContainer(id);
    }

    private static Duration fixedDelay(RunningService service, String method) {
        return task(service, method).getIntervalDuration();
    }

    private static Duration initialDelay(RunningService service, String method) {
        return task(service, method).getInitialDelayDuration();
    }

    /** The fixed-delay task that runs the method (simple class name and method name). */
    private static FixedDelayTask task(RunningService service, String method) {
        return service.bean(ScheduledTaskHolder.class).getScheduledTasks().stream()
                .map(scheduled -> scheduled.getTask())
                .filter(task ->
                        task instanceof FixedDelayTask && task.toString().endsWith("." + method))
                .map(FixedDelayTask.class::cast)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no fixed-delay task runs " + method));
    }
}
