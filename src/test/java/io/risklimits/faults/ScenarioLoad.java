package io.risklimits.faults;

import io.risklimits.support.Events;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
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
import java.util.function.Supplier;
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
 * several consumers at once. With holds (on a channel whose authorizations are holds), 20 % of the events
 * are captures (in part, in full or beyond the authorization, final or not) or increments of an earlier
 * authorization instead of authorizations, and a third of the authorizations and of the increments hold
 * for a few seconds after they are sent, so holds expire while the stream is decided.
 */
final class ScenarioLoad {

    /**
     * @param value the record's bytes, written when it is first sent (a hold's times are set then); a
     *     redelivery sends its original's
     * @param account the account the event names; null when it names none
     */
    record Planned(String key, Supplier<byte[]> value, Integer partition, UUID account) {}

    private static final int ACCOUNTS = 2;
    private static final int SHORT_HOLD_MIN_SECONDS = 2;
    private static final int SHORT_HOLD_MAX_SECONDS = 10;

    private final String channel;
    private final boolean holds;
    private final List<Planned> records = new ArrayList<>();
    private final Set<UUID> decidable = new LinkedHashSet<>();
    private final List<UUID> entities = new ArrayList<>();
    private final List<UUID> accounts = new ArrayList<>();
    private int unreadable;
    private int invalid;
    private int reversals;
    private int followUps;

    private ScenarioLoad(String channel, boolean holds, int keys, Random random) {
        this.channel = channel;
        this.holds = holds;
        for (int i = 0; i < keys; i++) {
            entities.add(new UUID(random.nextLong(), random.nextLong()));
        }
        for (int i = 0; i < ACCOUNTS; i++) {
            accounts.add(new UUID(random.nextLong(), random.nextLong()));
        }
    }

    /** A fault scenario's stream of events over keys business keys; with holds, the hold lifecycle's too. */
    static ScenarioLoad mixed(int events, int keys, String channel, long seed, boolean holds) {
        Random random = new Random(seed);
        ScenarioLoad load = new ScenarioLoad(channel, holds, keys, random);
        load.plan(events, random);
        return load;
    }

    /**
     * Authorizations only, perKey on each of keys business keys, naming no account, each holding for
     * heldFor after it is sent. Nothing follows them on their keys, so only a sweep expires them.
     */
    static ScenarioLoad expiringHolds(int keys, int perKey, String channel, Duration heldFor, long seed) {
        Random random = new Random(seed);
        ScenarioLoad load = new ScenarioLoad(channel, true, keys, random);
        for (UUID entity : load.entities) {
            for (int i = 0; i < perKey; i++) {
                UUID dedupeId = new UUID(random.nextLong(), random.nextLong());
                Map<String, Object> event = Events.event(dedupeId, entity, channel, "OUT", 100 + random.nextInt(1400));
                load.decidable.add(dedupeId);
                load.records.add(new Planned(
                        Events.businessKey(entity, channel, "OUT"), holdingFor(event, heldFor), null, null));
            }
        }
        return load;
    }

    private void plan(int events, Random random) {
        int keys = entities.size();
        Map<UUID, Planned> sent = new LinkedHashMap<>();
        Map<UUID, Long> authorized = new LinkedHashMap<>();
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
                UUID account = followUpsAccount(reversed, random);
                Planned planned = new Planned(
                        reversed.key(),
                        fixed(Events.withAccount(
                                Events.reversal(dedupeId, entityOf(reversed), channel, "OUT", amount, original),
                                account)),
                        partition,
                        account);
                reversals++;
                decidable.add(dedupeId);
                records.add(planned);
            } else if (kind < 16) {
                unreadable++;
                byte[] broken = ("{\"dedupe_id\": broken " + i).getBytes(StandardCharsets.UTF_8);
                records.add(new Planned(key, () -> broken, partition, null));
            } else if (holds && kind >= 18 && kind < 38 && !authorized.isEmpty()) {
                List<UUID> earlier = new ArrayList<>(authorized.keySet());
                UUID original = earlier.get(random.nextInt(earlier.size()));
                Planned acted = sent.get(original);
                UUID dedupeId = new UUID(random.nextLong(), random.nextLong());
                UUID account = followUpsAccount(acted, random);
                Supplier<byte[]> value = random.nextInt(10) < 6
                        ? fixed(Events.withAccount(
                                capture(dedupeId, entityOf(acted), original, authorized.get(original), random),
                                account))
                        : increment(dedupeId, entityOf(acted), original, account, random);
                followUps++;
                decidable.add(dedupeId);
                records.add(new Planned(acted.key(), value, partition, account));
            } else {
                UUID dedupeId = new UUID(random.nextLong(), random.nextLong());
                boolean valid = kind >= 18;
                if (!valid) {
                    invalid++;
                }
                long amount = valid ? 100 + random.nextInt(1400) : 0;
                UUID account = random.nextInt(100) < 85 ? accountOf(entity) : null;
                Map<String, Object> event =
                        Events.withAccount(Events.event(dedupeId, entity, channel, "OUT", amount), account);
                Supplier<byte[]> value =
                        holds && random.nextInt(3) == 0 ? holdingFor(event, shortHold(random)) : fixed(event);
                Planned planned = new Planned(key, value, partition, account);
                decidable.add(dedupeId);
                sent.put(dedupeId, planned);
                authorized.put(dedupeId, amount);
                records.add(planned);
            }
        }
    }

    // the original's account, none or the other one: a follow-up acts where the original counted
    private UUID followUpsAccount(Planned original, Random random) {
        int accountKind = random.nextInt(3);
        return accountKind == 0 ? original.account() : accountKind == 1 ? null : accounts.get(random.nextInt(ACCOUNTS));
    }

    // half of what was authorized or less, all of it, or a tip beyond it; final (the default when absent)
    // seven times in ten
    private Map<String, Object> capture(UUID dedupeId, UUID entity, UUID original, long authorized, Random random) {
        long base = Math.max(authorized, 100);
        int size = random.nextInt(10);
        long amount = size < 5 ? 1 + random.nextInt((int) base / 2) : size < 8 ? base : base + 50 + random.nextInt(400);
        Map<String, Object> event = Events.event(dedupeId, entity, channel, "OUT", amount);
        event.put("type", "CAPTURE");
        event.put("original", original.toString());
        int finality = random.nextInt(10);
        if (finality < 3) {
            event.put("final", false);
        } else if (finality < 6) {
            event.put("final", true);
        }
        return event;
    }

    // a third of them move the expiry to a few seconds after they are sent
    private Supplier<byte[]> increment(UUID dedupeId, UUID entity, UUID original, UUID account, Random random) {
        Map<String, Object> event =
                Events.withAccount(Events.event(dedupeId, entity, channel, "OUT", 50 + random.nextInt(550)), account);
        event.put("type", "INCREMENT");
        event.put("original", original.toString());
        return random.nextInt(3) == 0 ? holdingFor(event, shortHold(random)) : fixed(event);
    }

    private static Duration shortHold(Random random) {
        return Duration.ofSeconds(
                SHORT_HOLD_MIN_SECONDS + random.nextInt(SHORT_HOLD_MAX_SECONDS - SHORT_HOLD_MIN_SECONDS + 1));
    }

    private static Supplier<byte[]> fixed(Map<String, Object> event) {
        byte[] bytes = Events.json(event);
        return () -> bytes;
    }

    /** The event as first sent: occurring then, and holding until heldFor after it; the same bytes on every send. */
    private static Supplier<byte[]> holdingFor(Map<String, Object> event, Duration heldFor) {
        byte[][] written = new byte[1][];
        return () -> {
            synchronized (written) {
                if (written[0] == null) {
                    Instant now = Instant.now();
                    event.put("occurred_at", now.toString());
                    event.put("hold_expires_at", now.plus(heldFor).toString());
                    written[0] = Events.json(event);
                }
                return written[0];
            }
        };
    }

    private static UUID entityOf(Planned planned) {
        return UUID.fromString(planned.key().substring(0, planned.key().indexOf(':')));
    }

    /** Every entity but the last two belongs to an account, the accounts in turn. */
    private UUID accountOf(UUID entity) {
        int index = entities.indexOf(entity);
        return index < entities.size() - 2 ? accounts.get(index % ACCOUNTS) : null;
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
                            planned.value().get())));
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

    String channel() {
        return channel;
    }

    /** Whether the stream holds: authorizations that expire, captures and increments. */
    boolean holds() {
        return holds;
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

    /** The captures and increments. */
    int followUps() {
        return followUps;
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
