package io.risklimits.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code send-event}: publishes one transaction event to a running service and prints the decision
 * it gets, so a newcomer can see the service work without writing a producer. Plain Kafka clients,
 * no Spring context: it must not start the embedded servers a second time.
 */
public final class SendEventCommand {

    private static final Duration WAIT_FOR_DECISION = Duration.ofSeconds(30);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final CommandOptions options;
    private final PrintStream out;

    SendEventCommand(CommandOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    /** Returns the process exit code: 0 when the decision arrived, 1 when it did not in time. */
    public static int run(List<String> arguments, PrintStream out, PrintStream err) {
        quietClientLogs();
        CommandOptions options;
        try {
            options = CommandOptions.parse(
                    arguments,
                    Map.of(
                            "bootstrap-servers", "localhost:9092",
                            "transactions-topic", "risk.transactions",
                            "decisions-topic", "risk.decisions",
                            "entity", UUID.randomUUID().toString(),
                            "channel", "CARD",
                            "direction", "OUT",
                            "amount", "1000",
                            "currency", "USD",
                            "dedupe-id", UUID.randomUUID().toString()));
        } catch (IllegalArgumentException badArguments) {
            err.println("send-event: " + badArguments.getMessage());
            err.println("usage: send-event [--entity=UUID] [--channel=CARD] [--direction=IN|OUT] [--amount=minor units]"
                    + " [--currency=USD] [--dedupe-id=UUID] [--bootstrap-servers=localhost:9092]"
                    + " [--transactions-topic=risk.transactions] [--decisions-topic=risk.decisions]");
            return 2;
        }
        return new SendEventCommand(options, out).sendAndAwaitDecision();
    }

    private static void quietClientLogs() {
        if (LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof Logger root) {
            root.setLevel(Level.WARN);
        }
    }

    private int sendAndAwaitDecision() {
        String key = options.get("entity") + ":" + options.get("channel") + ":" + options.get("direction");
        String dedupeId = options.get("dedupe-id");
        try (KafkaConsumer<String, String> decisions = decisionsFromNow();
                KafkaProducer<String, String> producer = producer()) {
            String event = eventJson(dedupeId);
            out.println("sent     " + event);
            producer.send(new ProducerRecord<>(options.get("transactions-topic"), key, event))
                    .get();
            long deadline = System.nanoTime() + WAIT_FOR_DECISION.toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : decisions.poll(Duration.ofMillis(500))) {
                    if (record.value() != null && record.value().contains("\"" + dedupeId + "\"")) {
                        out.println("decision " + record.value());
                        return 0;
                    }
                }
            }
            out.println("no decision within " + WAIT_FOR_DECISION.toSeconds() + " s: is the service running?");
            return 1;
        } catch (Exception failure) {
            out.println("send-event failed: " + failure);
            return 1;
        }
    }

    private String eventJson(String dedupeId) {
        long amount;
        try {
            amount = Long.parseLong(options.get("amount"));
        } catch (NumberFormatException notANumber) {
            // sent as a string on purpose: the service answers INVALID, which is worth seeing too
            return JSON.writeValueAsString(event(dedupeId, options.get("amount")));
        }
        return JSON.writeValueAsString(event(dedupeId, amount));
    }

    private Map<String, Object> event(String dedupeId, Object amount) {
        return Map.of(
                "dedupe_id", dedupeId,
                "entity_id", options.get("entity"),
                "channel", options.get("channel"),
                "direction", options.get("direction"),
                "amount", amount,
                "currency", options.get("currency"),
                "occurred_at", Instant.now().toString());
    }

    private KafkaConsumer<String, String> decisionsFromNow() {
        Properties settings = new Properties();
        settings.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, options.get("bootstrap-servers"));
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(settings, new StringDeserializer(), new StringDeserializer());
        List<TopicPartition> partitions =
                consumer.partitionsFor(options.get("decisions-topic"), Duration.ofSeconds(10)).stream()
                        .map(info -> new TopicPartition(info.topic(), info.partition()))
                        .toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position); // fixes "now" before the event is sent
        return consumer;
    }

    private KafkaProducer<String, String> producer() {
        Properties settings = new Properties();
        settings.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, options.get("bootstrap-servers"));
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        return new KafkaProducer<>(settings, new StringSerializer(), new StringSerializer());
    }
}
