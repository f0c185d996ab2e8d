package io.risklimits.bench;

import io.risklimits.support.Events;
import io.risklimits.support.TestKafka;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    // of a wide key set: the order keys are drawn in, each once before any comes again
    private final int[] wideOrder;
    private int drawn;
    // recent authorizations a reversal may name: each is reversed at most once
    private final List<Authorization> authorizations = new ArrayList<>();

    private record Authorization(UUID dedupeId, int keyIndex, long amount) {}

    private static final int MAX_REVERSIBLE = 10_000;

    EventStream(Scenario scenario, BenchmarkKeys keys, long seed) {
        this.scenario = scenario;
        this.keys = keys;
        this.random = new Random(seed);
        this.wideOrder = scenario.wideKeys() ? shuffled(keys.size(), new Random(~seed)) : null;
    }

    private static int[] shuffled(int size, Random random) {
        int[] order = new int[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        for (int i = size - 1; i > 0; i--) {
            int other = random.nextInt(i + 1);
            int swapped = order[i];
            order[i] = order[other];
            order[other] = swapped;
        }
        return order;
    }

    /** One event as a producer would send it. */
    record Event(String dedupeId, byte[] recordKey, byte[] payload) {}

    /** The next count events, built now. */
    List<Event> next(int count) {
        return Stream.generate(this::next).limit(count).toList();
    }

    Event next() {
        if (!authorizations.isEmpty() && random.nextDouble() < scenario.reversalShare()) {
            return reversal(authorizations.remove(random.nextInt(authorizations.size())));
        }
        int keyIndex = wideOrder != null
                ? wideOrder[drawn++ % wideOrder.length]
                : scenario.hasHotKey() && random.nextDouble() < scenario.hotKeyShare()
                        ? 0
                        : random.nextInt(keys.size());
        long amount = MIN_AMOUNT + random.nextInt(MAX_AMOUNT - MIN_AMOUNT + 1);
        UUID dedupeId = UUID.randomUUID();
        Map<String, Object> event = Events.event(
                dedupeId, keys.entityId(keyIndex), BenchmarkKeys.CHANNEL, keys.direction(keyIndex), amount);
        byte[] payload =
                Events.json(scenario.accounts() > 0 ? Events.withAccount(event, scenario.accountOf(keyIndex)) : event);
        if (scenario.reversalShare() > 0) {
            if (authorizations.size() == MAX_REVERSIBLE) {
                authorizations.remove(0);
            }
            authorizations.add(new Authorization(dedupeId, keyIndex, amount));
        }
        return new Event(dedupeId.toString(), TestKafka.utf8(keys.recordKey(keyIndex)), payload);
    }

    /** A reversal, in full or in part, of an authorization sent before in this stream. */
    private Event reversal(Authorization original) {
        long amount = random.nextBoolean() ? original.amount() : 1 + random.nextInt((int) original.amount());
        UUID dedupeId = UUID.randomUUID();
        byte[] payload = Events.json(Events.reversal(
                dedupeId,
                keys.entityId(original.keyIndex()),
                BenchmarkKeys.CHANNEL,
                keys.direction(original.keyIndex()),
                amount,
                original.dedupeId()));
        return new Event(dedupeId.toString(), TestKafka.utf8(keys.recordKey(original.keyIndex())), payload);
    }
}
