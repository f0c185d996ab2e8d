package io.risklimits.bench;

import io.risklimits.support.Events;
import io.risklimits.support.TestKafka;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
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

    // a hold's follow-up comes 1 to this many events after it, a small part of a phase of tens of thousands
    private static final int MAX_FOLLOW_UP_DELAY = 1_000;
    // a hold that expires during the phase (of 5 s or more) it is decided in
    private static final Duration EXPIRING_HOLD = Duration.ofSeconds(2);
    // the others are held past the phase, as long as a hold without hold_expires_at is by default
    private static final Duration HELD_PAST_THE_PHASE = Duration.ofDays(7);

    private enum FollowUpType {
        CAPTURE,
        INCREMENT
    }

    // a hold's capture or increment, sent as the stream's event number dueAt (or the first one after)
    private record FollowUp(long dueAt, long sequence, FollowUpType type, Authorization original) {}

    private final PriorityQueue<FollowUp> followUps =
            new PriorityQueue<>(Comparator.comparingLong(FollowUp::dueAt).thenComparingLong(FollowUp::sequence));
    private long sent;

    EventStream(Scenario scenario, BenchmarkKeys keys, long seed) {
        this.scenario = scenario;
        this.keys = keys;
        this.random = new Random(seed);
        this.wideOrder = scenario.wideKeys() ? shuffled(keys.size(), new Random(~seed)) : null;
    }

    /** The scenario whose events this stream produces. */
    Scenario scenario() {
        return scenario;
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
        sent++;
        FollowUp due = followUps.peek();
        if (due != null && due.dueAt() <= sent) {
            return followUp(followUps.poll());
        }
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
        if (scenario.hasHolds()) {
            hold(event, new Authorization(dedupeId, keyIndex, amount));
        }
        if (scenario.hasForeignCurrencies() && random.nextDouble() < scenario.foreignShare()) {
            event.put("currency", Scenario.FOREIGN_CURRENCIES.get(random.nextInt(Scenario.FOREIGN_CURRENCIES.size())));
        }
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

    /**
     * Makes the authorization a hold, and draws what becomes of it: a capture or an increment due a few
     * events later, an expiry a few seconds after it occurred, or neither.
     */
    private void hold(Map<String, Object> authorization, Authorization hold) {
        Scenario.HoldMix mix = scenario.holds();
        double drawn = random.nextDouble();
        Instant occurredAt = Instant.parse((String) authorization.get("occurred_at"));
        boolean expiring = drawn >= mix.captureShare() + mix.incrementShare()
                && drawn < mix.captureShare() + mix.incrementShare() + mix.expiringShare();
        authorization.put(
                "hold_expires_at",
                occurredAt.plus(expiring ? EXPIRING_HOLD : HELD_PAST_THE_PHASE).toString());
        FollowUpType type = drawn < mix.captureShare()
                ? FollowUpType.CAPTURE
                : drawn < mix.captureShare() + mix.incrementShare() ? FollowUpType.INCREMENT : null;
        if (type != null) {
            long dueAt = sent + 1 + random.nextInt(MAX_FOLLOW_UP_DELAY);
            followUps.add(new FollowUp(dueAt, sent, type, hold));
        }
    }

    /** A capture of the hold (its amount, or up to a tenth more or less), or an increment of up to a quarter of it. */
    private Event followUp(FollowUp followUp) {
        Authorization original = followUp.original();
        long amount = followUp.type() == FollowUpType.CAPTURE
                ? switch (random.nextInt(4)) {
                    case 0 -> original.amount() - 1 - random.nextInt((int) original.amount() / 10);
                    case 1 -> original.amount() + 1 + random.nextInt((int) original.amount() / 10);
                    default -> original.amount();
                }
                : 1 + random.nextInt((int) original.amount() / 4);
        UUID dedupeId = UUID.randomUUID();
        Map<String, Object> event = Events.event(
                dedupeId,
                keys.entityId(original.keyIndex()),
                BenchmarkKeys.CHANNEL,
                keys.direction(original.keyIndex()),
                amount);
        event.put("type", followUp.type().name());
        event.put("original", original.dedupeId().toString());
        return new Event(dedupeId.toString(), TestKafka.utf8(keys.recordKey(original.keyIndex())), Events.json(event));
    }
}
