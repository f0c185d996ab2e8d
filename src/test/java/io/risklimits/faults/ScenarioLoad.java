package io.risklimits.faults;

import io.risklimits.support.Events;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * One scenario's event stream, fixed by a seed: a few business keys (so limits fill up and reject), most
 * of their entities in one of two accounts, their events naming it now and then not,
 * 5 % redeliveries of an earlier dedupe_id, 10 % reversals of an earlier event (in full, in part, or
 * for more than it counted; whatever became of it), 2 % invalid events, 1 % records that are not JSON, and
 * half of the events sent to a random partition instead of their key's, so one key is decided by
 * several consumers at once.
 */
final class ScenarioLoad {

    /** @param account the account the event names; null when it names none */
    record Planned(String key, byte[] value, Integer partition, UUID account) {}

    private static final int ACCOUNTS = 2;

    private final List<Planned> records = new ArrayList<>();
    private final Set<UUID> decidable = new LinkedHashSet<>();
    private final List<UUID> entities = new ArrayList<>();
    private final List<UUID> accounts = new ArrayList<>();
    private int unreadable;
    private int invalid;
    private int reversals;

    ScenarioLoad(int events, int keys, String channel, long seed) {
        Random random = new Random(seed);
        for (int i = 0; i < keys; i++) {
            entities.add(new UUID(random.nextLong(), random.nextLong()));
        }
        for (int i = 0; i < ACCOUNTS; i++) {
            accounts.add(new UUID(random.nextLong(), random.nextLong()));
        }
        Map<UUID, Planned> sent = new LinkedHashMap<>();
        for (int i = 0; i < events; i++) {
            UUID entity = entities.get(random.nextInt(keys));
            String key = entity + ":" + channel + ":OUT";
            Integer partition = random.nextBoolean() ? random.nextInt(12) : null;
            int kind = random.nextInt(100);
            if (kind < 5 && !sent.isEmpty()) {
                List<Planned> earlier = new ArrayList<>(sent.values());
                Planned again = earlier.get(random.nextInt(earlier.size()));
                records.add(new Planned(again.key(), again.value(), partition, again.account()));
            } else if (kind < 15 && !sent.isEmpty()) {
                List<UUID> earlier = new ArrayList<>(sent.keySet());
                UUID original = earlier.get(random.nextInt(earlier.size()));
                Planned reversed = sent.get(original);
                UUID dedupeId = new UUID(random.nextLong(), random.nextLong());
                long amount = 50 + random.nextInt(1450);
                // the original's account, none or the other one: it releases where the original counted
                int accountKind = random.nextInt(3);
                UUID account = accountKind == 0
                        ? reversed.account()
                        : accountKind == 1 ? null : accounts.get(random.nextInt(ACCOUNTS));
                Planned planned = new Planned(
                        reversed.key(),
                        Events.json(Events.withAccount(
                                Events.reversal(dedupeId, entityOf(reversed), channel, "OUT", amount, original),
                                account)),
                        partition,
                        account);
                reversals++;
                decidable.add(dedupeId);
                records.add(planned);
            } else if (kind < 16) {
                unreadable++;
                records.add(new Planned(
                        key, ("{\"dedupe_id\": broken " + i).getBytes(StandardCharsets.UTF_8), partition, null));
            } else {
                UUID dedupeId = new UUID(random.nextLong(), random.nextLong());
                boolean valid = kind >= 18;
                if (!valid) {
                    invalid++;
                }
                long amount = valid ? 100 + random.nextInt(1400) : 0;
                UUID account = random.nextInt(100) < 85 ? accountOf(entity) : null;
                Planned planned =
                        new Planned(key, event(dedupeId, entity, channel, amount, account), partition, account);
                decidable.add(dedupeId);
                sent.put(dedupeId, planned);
                records.add(planned);
            }
        }
    }

    private static UUID entityOf(Planned planned) {
        return UUID.fromString(planned.key().substring(0, planned.key().indexOf(':')));
    }

    /** Every entity but the last two belongs to an account, the accounts in turn. */
    private UUID accountOf(UUID entity) {
        int index = entities.indexOf(entity);
        return index < entities.size() - 2 ? accounts.get(index % ACCOUNTS) : null;
    }

    private static byte[] event(UUID dedupeId, UUID entity, String channel, long amount, UUID account) {
        return Events.json(Events.withAccount(Events.event(dedupeId, entity, channel, "OUT", amount), account));
    }

    /** Sends the stream at about perSecond records a second; the future completes when all are acknowledged. */
    CompletableFuture<Void> send(String bootstrapServers, String topic, int perSecond) {
        return CompletableFuture.runAsync(() -> {
            try (KafkaProducer<byte[], byte[]> producer = producer(bootstrapServers)) {
                List<Future<RecordMetadata>> acks = new ArrayList<>();
                long started = System.nanoTime();
                for (int i = 0; i < records.size(); i++) {
                    Planned planned = records.get(i);
                    acks.add(producer.send(new ProducerRecord<>(
                            topic,
                            planned.partition(),
                            planned.key().getBytes(StandardCharsets.UTF_8),
                            planned.value())));
                    long due = started + (long) (i + 1) * 1_000_000_000L / perSecond;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                }
                for (Future<RecordMetadata> ack : acks) {
                    ack.get();
                }
            } catch (Exception e) {
                throw new IllegalStateException("the load could not be sent", e);
            }
        });
    }

    private static KafkaProducer<byte[], byte[]> producer(String bootstrapServers) {
        return new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.LINGER_MS_CONFIG,
                5,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                300_000,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class));
    }

    int records() {
        return records.size();
    }

    /** Every dedupe_id that must end with exactly one decision: valid and invalid events. */
    Set<UUID> decidable() {
        return decidable;
    }

    int reversals() {
        return reversals;
    }

    int unreadable() {
        return unreadable;
    }

    int invalid() {
        return invalid;
    }

    List<UUID> entities() {
        return entities;
    }

    List<UUID> accounts() {
        return accounts;
    }
}
