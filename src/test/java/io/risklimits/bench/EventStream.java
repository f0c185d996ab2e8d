package io.risklimits.bench;

import io.risklimits.support.Events;
import io.risklimits.support.TestKafka;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The fixed stream of a scenario: which key and which amount, drawn from a seeded generator, so
 * every mode decides the same sequence. Only the dedupe ids are new each time.
 */
final class EventStream {

    // small against the limits (see BenchmarkDatabase), so nearly every event is approved
    private static final int MIN_AMOUNT = 100;
    private static final int MAX_AMOUNT = 5_000;

    private final Scenario scenario;
    private final BenchmarkKeys keys;
    private final Random random;

    EventStream(Scenario scenario, BenchmarkKeys keys, long seed) {
        this.scenario = scenario;
        this.keys = keys;
        this.random = new Random(seed);
    }

    /** One event as a producer would send it. */
    record Event(String dedupeId, byte[] recordKey, byte[] payload) {}

    /** The next count events, built now. */
    List<Event> next(int count) {
        return Stream.generate(this::next).limit(count).toList();
    }

    Event next() {
        int keyIndex =
                scenario.hasHotKey() && random.nextDouble() < scenario.hotKeyShare() ? 0 : random.nextInt(keys.size());
        long amount = MIN_AMOUNT + random.nextInt(MAX_AMOUNT - MIN_AMOUNT + 1);
        UUID dedupeId = UUID.randomUUID();
        byte[] payload = Events.json(Events.event(
                dedupeId, keys.entityId(keyIndex), BenchmarkKeys.CHANNEL, keys.direction(keyIndex), amount));
        return new Event(dedupeId.toString(), TestKafka.utf8(keys.recordKey(keyIndex)), payload);
    }
}
