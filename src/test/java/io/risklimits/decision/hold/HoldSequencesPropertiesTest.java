package io.risklimits.decision.hold;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.Reason;
import io.risklimits.decision.Tally;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Generated sequences of reversals, increments, captures and expiries of one authorization (a seeded
 * Random, so a failure names the sequence that reproduces it), with hourly buckets that apply every
 * outcome's releases and additions. After every decision the ledger and the buckets agree.
 */
class HoldSequencesPropertiesTest {

    private static final long SEED = 20_261_126L;
    private static final int SEQUENCES = 2_000;
    private static final int EVENTS = 40;

    @Test
    void everySequenceKeepsTheLedgerConsistentAndTheBucketsEqualToWhatItCounts() {
        Random random = new Random(SEED);
        for (int sequence = 0; sequence < SEQUENCES; sequence++) {
            run(random, sequence);
        }
    }

    private static void run(Random random, int sequence) {
        Instant now = HoldStates.AUTHORIZED.plus(Duration.ofMinutes(random.nextInt(600)));
        long amount = 1 + random.nextInt(2_000);
        HoldLedger ledger = random.nextInt(5) == 0
                ? HoldLedger.finalSpend(amount, now)
                : HoldLedger.hold(amount, now, now.plus(Duration.ofMinutes(1 + random.nextInt(4_000))));
        Map<Instant, long[]> buckets = new HashMap<>();
        apply(buckets, List.of(), List.of(new HourTally(HourTally.hourOf(now), new Tally(amount, 1))));
        List<String> history = new ArrayList<>(List.of(ledger.isHold() ? "hold " + amount : "final spend " + amount));
        for (int event = 0; event < EVENTS; event++) {
            now = next(random, now, ledger);
            HoldOutcome outcome = decide(random, ledger, now, history);
            String where = "sequence " + sequence + " (seed " + SEED + "): " + history;
            if (outcome.expiredFirst() != null) {
                HoldOutcome expiry = outcome.expiredFirst();
                assertThat(expiry.verdict()).as(where).isEqualTo(HoldVerdict.EXPIRED);
                assertThat(ledger.isDueAt(now)).as(where).isTrue();
                assertMostRecentFirst(expiry.releases(), where);
                apply(buckets, expiry.releases(), expiry.additions());
            } else {
                assertThat(ledger.isDueAt(now) && outcome.verdict() != HoldVerdict.EXPIRED)
                        .as(where)
                        .isFalse();
            }
            assertMostRecentFirst(outcome.releases(), where);
            apply(buckets, outcome.releases(), outcome.additions());
            ledger = (HoldLedger) outcome.after();
            assertConsistent(ledger, buckets, now, where);
        }
    }

    private static Instant next(Random random, Instant now, HoldLedger ledger) {
        if (ledger.isHold() && random.nextInt(10) == 0 && ledger.expiresAt().isAfter(now)) {
            return ledger.expiresAt(); // the expiry instant itself
        }
        return now.plus(Duration.ofMinutes(random.nextInt(240)));
    }

    private static HoldOutcome decide(Random random, HoldLedger ledger, Instant now, List<String> history) {
        switch (random.nextInt(4)) {
            case 0 -> {
                long amount = 1 + random.nextInt((int) Math.min(ledger.counted() + 50, Integer.MAX_VALUE - 1));
                history.add("reverse " + amount + " at " + now);
                return HoldPolicy.reverse(ledger, amount, now);
            }
            case 1 -> {
                long amount = 1 + random.nextInt(1_000);
                Instant expiresAt =
                        random.nextInt(5) == 0 ? now.plus(Duration.ofMinutes(1 + random.nextInt(4_000))) : null;
                Reason refused = random.nextInt(5) == 0 ? Reason.LIMIT_7D_AMOUNT : null;
                history.add("increment " + amount + " at " + now + " to " + expiresAt + " refused " + refused);
                return HoldPolicy.increment(ledger, amount, now, expiresAt, refused);
            }
            case 2 -> {
                long amount = 1 + random.nextInt(1_500);
                boolean isFinal = random.nextBoolean();
                history.add((isFinal ? "final " : "") + "capture " + amount + " at " + now);
                HoldOutcome outcome = HoldPolicy.capture(ledger, amount, isFinal, now);
                assertThat(outcome.captured() + outcome.overCaptured())
                        .as("%s", history)
                        .isEqualTo(amount);
                return outcome;
            }
            default -> {
                history.add("sweep at " + now);
                return HoldPolicy.expire(ledger, now)
                        .orElse(new HoldOutcome(HoldVerdict.EXPIRED, null, List.of(), List.of(), 0, 0, ledger, null));
            }
        }
    }

    private static void apply(Map<Instant, long[]> buckets, List<HourTally> releases, List<HourTally> additions) {
        for (HourTally release : releases) {
            long[] bucket = buckets.computeIfAbsent(release.hour(), hour -> new long[2]);
            bucket[0] -= release.tally().amount();
            bucket[1] -= release.tally().count();
            assertThat(bucket[0])
                    .as("amount of %s after a release", release.hour())
                    .isNotNegative();
            assertThat(bucket[1])
                    .as("count of %s after a release", release.hour())
                    .isNotNegative();
        }
        for (HourTally addition : additions) {
            long[] bucket = buckets.computeIfAbsent(addition.hour(), hour -> new long[2]);
            bucket[0] += addition.tally().amount();
            bucket[1] += addition.tally().count();
        }
    }

    private static void assertMostRecentFirst(List<HourTally> releases, String where) {
        for (int index = 1; index < releases.size(); index++) {
            assertThat(releases.get(index).hour())
                    .as(where)
                    .isBefore(releases.get(index - 1).hour());
        }
    }

    private static void assertConsistent(HoldLedger ledger, Map<Instant, long[]> buckets, Instant now, String where) {
        long counted = ledger.counted();
        assertThat(counted)
                .as(where)
                .isEqualTo(ledger.amount() + ledger.increments() + ledger.overCaptured() - ledger.released())
                .isNotNegative();
        assertThat(ledger.parts()).as(where).allMatch(part -> part.released() >= 0 && part.counted() >= 0);
        assertThat(ledger.held()).as(where).isBetween(0L, counted);
        if (ledger.isHold() && !now.isBefore(ledger.expiresAt())) {
            assertThat(ledger.status()).as(where).isNotEqualTo(HoldStatus.OPEN);
        }
        Map<Instant, Long> countedByHour = new HashMap<>();
        ledger.parts().forEach(part -> countedByHour.merge(part.hour(), part.counted(), Long::sum));
        buckets.forEach((hour, bucket) -> {
            assertThat(bucket[0]).as("amount of %s in %s", hour, where).isEqualTo(countedByHour.getOrDefault(hour, 0L));
            long count = hour.equals(ledger.countHour()) ? 1 : 0;
            assertThat(bucket[1]).as("count of %s in %s", hour, where).isEqualTo(count);
        });
        assertThat(buckets.keySet()).as(where).containsAll(countedByHour.keySet());
    }
}
