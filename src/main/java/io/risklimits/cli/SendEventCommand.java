package io.risklimits.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import tools.jackson.databind.json.JsonMapper;

/**
 * Publishes one transaction event to a running service and prints the decision it gets, so a newcomer
 * can see the service work without writing a producer. The event's fields are sent as given, not
 * checked here: a bad one is answered INVALID by the service, which is worth seeing too.
 */
@Command(
        name = "send-event",
        description = "Sends one transaction event and prints the decision the service publishes for it.")
final class SendEventCommand implements Callable<Integer> {

    private static final Duration WAIT_FOR_DECISION = Duration.ofSeconds(30);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Spec
    CommandSpec spec;

    @Option(
            names = "--entity",
            description = "entity_id (default: one derived from the dedupe_id, so that sending one --dedupe-id"
                    + " twice is a redelivery of the same event)")
    String entity;

    @Option(names = "--channel", defaultValue = "CARD", description = "(default: ${DEFAULT-VALUE})")
    String channel;

    @Option(names = "--direction", defaultValue = "OUT", description = "IN or OUT (default: ${DEFAULT-VALUE})")
    String direction;

    @Option(names = "--amount", defaultValue = "1000", description = "minor units (default: ${DEFAULT-VALUE})")
    String amount;

    @Option(names = "--currency", defaultValue = "USD", description = "(default: ${DEFAULT-VALUE})")
    String currency;

    @Option(names = "--dedupe-id", description = "(default: a new UUID; send one twice to see a replay)")
    String dedupeId = UUID.randomUUID().toString();

    @Option(
            names = "--type",
            defaultValue = "AUTHORIZATION",
            description = "AUTHORIZATION, REVERSAL, CAPTURE or INCREMENT (default: ${DEFAULT-VALUE})")
    String type;

    @Option(
            names = "--reverses",
            description = "for a REVERSAL: the dedupe_id of the authorization it releases; without --entity the"
                    + " entity is then derived from it, so the reversal lands under the authorization's key")
    String reverses;

    @Option(
            names = "--original",
            paramLabel = "UUID",
            description = "for a CAPTURE or INCREMENT: the dedupe_id of the authorization it acts on; without"
                    + " --entity (and --reverses) the entity is then derived from it, as from --reverses")
    String original;

    @Option(
            names = "--final",
            paramLabel = "true|false",
            description = "for a CAPTURE: false leaves what is still held for later captures (default: absent,"
                    + " which the service takes as true)")
    String finalCapture;

    @Option(
            names = "--hold-expires-at",
            paramLabel = "RFC3339",
            description = "for an AUTHORIZATION or INCREMENT: when the hold expires, e.g. 2026-12-01T09:00:00Z")
    String holdExpiresAt;

    @Option(
            names = "--account",
            description = "the account the entity belongs to: the event also counts at the account's scopes")
    String account;

    @Option(
            names = "--transactions-topic",
            defaultValue = "${env:RISK_TOPICS_TRANSACTIONS:-risk.transactions}",
            description = "(default: $RISK_TOPICS_TRANSACTIONS, else ${DEFAULT-VALUE})")
    String transactionsTopic;

    @Option(
            names = "--decisions-topic",
            defaultValue = "${env:RISK_TOPICS_DECISIONS:-risk.decisions}",
            description = "(default: $RISK_TOPICS_DECISIONS, else ${DEFAULT-VALUE})")
    String decisionsTopic;

    @Mixin
    KafkaOptions kafka;

    @Override
    public Integer call() {
        String event = eventJson();
        PrintWriter out = spec.commandLine().getOut();
        // subscribed before sending, so a fast decision cannot be missed
        try (KafkaConsumer<String, String> decisions = kafka.consumerFromNow(decisionsTopic);
                KafkaProducer<String, String> producer = kafka.producer()) {
            kafka.send(producer, transactionsTopic, entity + ":" + channel + ":" + direction, event);
            out.println("sent     " + event);
            out.flush();
            long deadline = System.nanoTime() + WAIT_FOR_DECISION.toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : decisions.poll(Duration.ofMillis(500))) {
                    if (record.value() != null && record.value().contains("\"" + dedupeId + "\"")) {
                        out.println("decision " + record.value());
                        return 0;
                    }
                }
            }
        }
        throw new CommandFailed("no decision within " + WAIT_FOR_DECISION.toSeconds() + " s: is the service running?");
    }

    /** The event as it is sent: its fields as given, the entity derived when none is given. */
    String eventJson() {
        if (entity == null) {
            String derivedFrom = reverses != null ? reverses : original != null ? original : dedupeId;
            entity = UUID.nameUUIDFromBytes(derivedFrom.getBytes(StandardCharsets.UTF_8))
                    .toString();
        }
        return JSON.writeValueAsString(event());
    }

    private Map<String, Object> event() {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("dedupe_id", dedupeId);
        event.put("entity_id", entity);
        event.put("channel", channel);
        event.put("direction", direction);
        event.put("amount", amountAsSent());
        event.put("currency", currency);
        event.put("occurred_at", Instant.now().toString());
        if (!type.equals("AUTHORIZATION")) {
            event.put("type", type);
        }
        if (reverses != null) {
            event.put("reverses", reverses);
        }
        if (original != null) {
            event.put("original", original);
        }
        if (finalCapture != null) {
            event.put("final", booleanAsSent(finalCapture));
        }
        if (holdExpiresAt != null) {
            event.put("hold_expires_at", holdExpiresAt);
        }
        if (account != null) {
            event.put("account_id", account);
        }
        return event;
    }

    // a number when it is one; otherwise sent as a string on purpose, and the service answers INVALID
    private Object amountAsSent() {
        try {
            return Long.parseLong(amount);
        } catch (NumberFormatException notANumber) {
            return amount;
        }
    }

    // a boolean when it is one; otherwise sent as a string, which the service answers INVALID
    private static Object booleanAsSent(String value) {
        return switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> value;
        };
    }
}
