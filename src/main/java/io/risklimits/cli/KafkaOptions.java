package io.risklimits.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import picocli.CommandLine.Option;

/** Where the commands find Kafka, and the plain clients they use: no consumer group, nothing committed. */
final class KafkaOptions {

    // a CLI should fail in seconds when Kafka is down, not after the clients' default minute
    private static final Duration REACH_KAFKA = Duration.ofSeconds(15);

    @Option(
            names = "--bootstrap-servers",
            defaultValue = "${env:SPRING_KAFKA_BOOTSTRAP_SERVERS:-localhost:9092}",
            description = "Kafka bootstrap servers (default: $SPRING_KAFKA_BOOTSTRAP_SERVERS, else ${DEFAULT-VALUE})")
    String bootstrapServers;

    @Option(
            names = "--kafka-config",
            paramLabel = "FILE",
            defaultValue = "${env:RISK_CLI_KAFKA_CONFIG}",
            description = "Kafka client settings file (security.protocol, sasl.*, ssl.*: Java properties, like the"
                    + " --command-config of Kafka's own tools); the command's own settings win"
                    + " (default: $RISK_CLI_KAFKA_CONFIG, else none)")
    Path clientConfig;

    KafkaProducer<String, String> producer() {
        Properties settings = clientSettings();
        settings.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) REACH_KAFKA.toMillis());
        try {
            return new KafkaProducer<>(settings, new StringSerializer(), new StringSerializer());
        } catch (KafkaException refused) {
            throw clientRefused(refused);
        }
    }

    /** Sends and waits for the broker's acknowledgement; a record that did not arrive fails the command. */
    void send(KafkaProducer<String, String> producer, String topic, String key, String value) {
        try {
            producer.send(new ProducerRecord<>(topic, key, value)).get(REACH_KAFKA.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException | KafkaException failed) {
            throw new CommandFailed("could not send to " + topic + " on Kafka at " + bootstrapServers + ": "
                    + FailureMessages.describe(failed));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new CommandFailed("interrupted while sending to " + topic);
        }
    }

    /**
     * A consumer of every partition of the topic, positioned at its end now, before the command sends
     * anything: so the answer cannot be missed, and older answers are not read.
     */
    KafkaConsumer<String, String> consumerFromNow(String topic) {
        Properties settings = clientSettings();
        settings.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        KafkaConsumer<String, String> consumer;
        try {
            consumer = new KafkaConsumer<>(settings, new StringDeserializer(), new StringDeserializer());
        } catch (KafkaException refused) {
            throw clientRefused(refused);
        }
        try {
            List<PartitionInfo> partitions = consumer.partitionsFor(topic, REACH_KAFKA);
            if (partitions == null || partitions.isEmpty()) {
                throw new CommandFailed("topic " + topic + " does not exist on Kafka at " + bootstrapServers
                        + ": is the service running (it creates its topics at start-up)?");
            }
            List<TopicPartition> assigned = partitions.stream()
                    .map(info -> new TopicPartition(info.topic(), info.partition()))
                    .toList();
            consumer.assign(assigned);
            consumer.seekToEnd(assigned);
            assigned.forEach(consumer::position); // fixes "now": seekToEnd alone is lazy
            return consumer;
        } catch (KafkaException unreachable) {
            consumer.close();
            throw new CommandFailed(
                    "cannot reach Kafka at " + bootstrapServers + ": " + FailureMessages.describe(unreachable));
        } catch (CommandFailed noTopic) {
            consumer.close();
            throw noTopic;
        }
    }

    /** The settings file's entries, if one is given: what a secured cluster needs (SASL, TLS). */
    private Properties clientSettings() {
        Properties settings = new Properties();
        if (clientConfig != null) {
            try (Reader file = Files.newBufferedReader(clientConfig, StandardCharsets.UTF_8)) {
                settings.load(file);
            } catch (IOException | IllegalArgumentException unreadable) {
                throw new CommandFailed(
                        "cannot read --kafka-config " + clientConfig + ": " + FailureMessages.describe(unreadable));
            }
        }
        return settings;
    }

    // a client that cannot be built from its settings (a truststore that is not there, a bad value)
    private CommandFailed clientRefused(KafkaException refused) {
        return new CommandFailed("the Kafka client settings"
                + (clientConfig == null ? "" : " (with --kafka-config " + clientConfig + ")")
                + " were refused: " + FailureMessages.describe(refused));
    }
}
