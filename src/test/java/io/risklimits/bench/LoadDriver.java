package io.risklimits.bench;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Produces a scenario's events to the transactions topic: all at once, or at a fixed rate. */
final class LoadDriver implements AutoCloseable {

    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final KafkaProducer<byte[], byte[]> producer;

    LoadDriver(String bootstrapServers) {
        this.producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ProducerConfig.ACKS_CONFIG,
                "all",
                // Kafka 4's default (KIP-1030): at 1 ms the requests of this producer, which stands in for
                // producers on other machines, cost the broker and the producer 0.14 cores more at 8,000
                // events/s, on the two cores the service shares with them. Latency counts from the
                // event's append, so the linger shows only in the stricter figure from its schedule.
                ProducerConfig.LINGER_MS_CONFIG,
                5,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class));
    }

    /** Sends count events, waits until the broker has them all and returns their dedupe ids. */
    Set<String> produceAll(String topic, EventStream stream, int count) {
        Set<String> dedupeIds = new HashSet<>(count * 2);
        for (int i = 0; i < count; i++) {
            EventStream.Event event = stream.next();
            dedupeIds.add(event.dedupeId());
            producer.send(new ProducerRecord<>(topic, event.recordKey(), event.payload()));
        }
        producer.flush();
        return dedupeIds;
    }

    /**
     * Sends the events on a fixed schedule (open loop), waking once a millisecond to send the
     * events that are due: waking once per event would spend a core of this two-core machine on
     * the load generator. The events come built (EventStream.next(count)), so that building them
     * takes no CPU from the service while it is measured. Returns dedupe id -> scheduled millis, not
     * the time each was actually sent: measured from it, a sender that falls behind shows as latency
     * instead of being hidden (coordinated omission).
     */
    Map<String, Long> produceAtRate(String topic, List<EventStream.Event> events, double eventsPerSecond) {
        int count = events.size();
        // kept in an array while sending, mapped after: a map growing through the stretch is live data
        // that every young collection in it copies, and its pauses are the service's latency
        long[] scheduledMillis = new long[count];
        long startNanos = System.nanoTime();
        long startMillis = System.currentTimeMillis();
        double intervalNanos = TimeUnit.SECONDS.toNanos(1) / eventsPerSecond;
        int sent = 0;
        while (sent < count) {
            long elapsedNanos = System.nanoTime() - startNanos;
            int due = (int) Math.min(count, elapsedNanos / intervalNanos + 1);
            for (; sent < due; sent++) {
                long scheduled = startMillis + TimeUnit.NANOSECONDS.toMillis((long) (sent * intervalNanos));
                EventStream.Event event = events.get(sent);
                scheduledMillis[sent] = scheduled;
                producer.send(new ProducerRecord<>(topic, null, scheduled, event.recordKey(), event.payload()));
            }
            LockSupport.parkNanos(TICK_NANOS);
        }
        producer.flush();
        Map<String, Long> scheduledByDedupeId = new HashMap<>(count * 2);
        for (int i = 0; i < count; i++) {
            scheduledByDedupeId.put(events.get(i).dedupeId(), scheduledMillis[i]);
        }
        return scheduledByDedupeId;
    }

    @Override
    public void close() {
        producer.close();
    }
}
