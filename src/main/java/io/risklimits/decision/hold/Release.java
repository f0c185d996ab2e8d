package io.risklimits.decision.hold;

import io.risklimits.decision.Tally;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An amount taken off a ledger's counted parts, the most recently counted part first, and what each
 * hour gets back: the amount taken from its parts, and the count of 1 in the count's hour when nothing
 * of the authorization is counted any more. Hours are listed in the order they were released from. An
 * authorization in another currency also has ownAmount (in its own currency) taken off its own counted
 * figure; for one in the limit currency ownAmount is the amount.
 */
record Release(HoldLedger after, List<HourTally> hours) {

    static Release of(HoldLedger ledger, long amount, long ownAmount) {
        if (amount < 0 || amount > ledger.counted()) {
            throw new IllegalArgumentException(
                    "cannot release " + amount + " of " + ledger.counted() + " still counted");
        }
        if (ledger.own() != null && (ownAmount < 0 || ownAmount > ledger.ownCounted())) {
            throw new IllegalArgumentException("cannot release " + ownAmount + " of " + ledger.ownCounted()
                    + " still counted in its own currency");
        }
        List<CountedPart> parts = new ArrayList<>(ledger.parts());
        Map<Instant, Tally> byHour = new LinkedHashMap<>();
        long left = amount;
        for (int index = parts.size() - 1; index >= 0 && left > 0; index--) {
            CountedPart part = parts.get(index);
            long taken = Math.min(left, part.counted());
            if (taken > 0) {
                parts.set(index, part.release(taken));
                byHour.merge(part.hour(), new Tally(taken, 0), Tally::plus);
                left -= taken;
            }
        }
        boolean nothingCountedAfter = amount > 0 && amount == ledger.counted();
        if (nothingCountedAfter) {
            byHour.merge(ledger.countHour(), new Tally(0, 1), Tally::plus);
        }
        List<HourTally> hours = new ArrayList<>();
        byHour.forEach((hour, tally) -> hours.add(new HourTally(hour, tally)));
        return new Release(
                ledger.withParts(parts, nothingCountedAfter ? null : ledger.countHour())
                        .withOwnMoved(-ownAmount, 0),
                List.copyOf(hours));
    }
}
