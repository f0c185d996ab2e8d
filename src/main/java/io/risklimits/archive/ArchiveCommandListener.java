package io.risklimits.archive;

import io.risklimits.kafka.KafkaErrorProperties;
import io.risklimits.kafka.TopicProperties;
import io.risklimits.shared.ConditionalOnRole;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/**
 * Takes archive commands one at a time and answers each on the results topic; the offset is committed
 * only after the answer is confirmed, so a crash means the command is redelivered and run again
 * (a run that had started is resumed from the cursor; a finished one is answered DUPLICATE).
 */
@Component
@ConditionalOnRole("archiver")
class ArchiveCommandListener {

    private static final Logger log = LoggerFactory.getLogger(ArchiveCommandListener.class);

    private final Archiver archiver;
    private final KafkaTemplate<byte[], byte[]> kafka;
    private final TopicProperties topics;
    private final ArchiverMetrics metrics;
    private final KafkaErrorProperties kafkaErrors;

    ArchiveCommandListener(
            Archiver archiver,
            KafkaTemplate<byte[], byte[]> kafka,
            TopicProperties topics,
            ArchiverMetrics metrics,
            KafkaErrorProperties kafkaErrors) {
        this.archiver = archiver;
        this.kafka = kafka;
        this.topics = topics;
        this.metrics = metrics;
        this.kafkaErrors = kafkaErrors;
    }

    // a catch-up run can take longer than the default max.poll.interval.ms of five minutes
    @KafkaListener(
            id = "risk-archiver",
            topics = "#{@'risk.topics-io.risklimits.kafka.TopicProperties'.archiveCommands()}",
            groupId = "#{@'risk.archiver-io.risklimits.archive.ArchiverProperties'.groupId()}",
            concurrency = "1",
            properties = "max.poll.interval.ms=3600000",
            containerFactory = "archiverContainerFactory")
    void onCommand(ConsumerRecord<byte[], byte[]> record)
            throws ExecutionException, InterruptedException, TimeoutException {
        long started = System.nanoTime();
        ArchiveCommandReader.Read read = ArchiveCommandReader.read(record.value());
        ArchiveResult result;
        if (read instanceof ArchiveCommandReader.Read.Command command) {
            result = archiver.handle(command.command());
        } else {
            ArchiveCommandReader.Read.Invalid invalid = (ArchiveCommandReader.Read.Invalid) read;
            result = ArchiveResult.notRun(
                    invalid.commandId(),
                    ArchiveResult.Status.INVALID,
                    false,
                    invalid.error(),
                    (System.nanoTime() - started) / 1_000_000);
        }
        log.info(
                "Archive command {}: {} ({} windows, {} + {} rows{})",
                result.commandId(),
                result.status(),
                result.windows(),
                result.deletedAggRows(),
                result.deletedLogRows(),
                result.dryRun() ? ", dry run" : "");
        byte[] key = result.commandId() == null
                ? null
                : result.commandId().toString().getBytes(StandardCharsets.UTF_8);
        kafka.send(topics.archiveResults(), key, result.toJson().getBytes(StandardCharsets.UTF_8))
                .get(kafkaErrors.sendTimeout().toMillis(), TimeUnit.MILLISECONDS);
        metrics.commandAnswered(result);
    }
}
