package io.risklimits.backtest;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.LimitPolicy;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Outcome;
import io.risklimits.decision.Tally;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Window;
import io.risklimits.limits.LimitRow;
import io.risklimits.limits.LimitTable;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.TemporalAdjusters;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The live decider of one key, written naively and apart from the production replay: usage is the sum
 * of the key's approved-minus-released amounts and counts over every hour bucket the window holds,
 * recomputed for each event; window starts are computed here from java.time.
 */
final class ReferenceModel {

    private final ZoneId zone;
    private final Limits limits;
    private final Map<Instant, long[]> buckets = new HashMap<>();
    private final Map<UUID, Original> originals = new HashMap<>();

    /** What a reversal may find: the original's kind, verdict, amount, bucket and what was given back. */
    private static final class Original {
        final HistoryEvent.Kind kind;
        final String verdict;
        final long amount;
        final Instant bucket;
        long released;

        Original(HistoryEvent.Kind kind, String verdict, long amount, Instant bucket) {
            this.kind = kind;
            this.verdict = verdict;
            this.amount = amount;
            this.bucket = bucket;
        }
    }

    ReferenceModel(BusinessKey key, List<LimitRow> limitRows, ZoneId zone) {
        this.zone = zone;
        this.limits = new LimitTable(limitRows).limitsFor(key);
    }

    /** Decides the event as the live decider would, and writes the outcome on it as its stored one. */
    void decideAndStore(HistoryEvent event) {
        String[] outcome = decide(event, true);
        event.decision = outcome[0];
        event.reason = outcome[1];
    }

    /**
     * Decides the event again, its stored outcome untouched; returns the decision and the reason (null
     * when approved or released).
     */
    String[] decideAgain(HistoryEvent event) {
        return decide(event, false);
    }

    private String[] decide(HistoryEvent event, boolean store) {
        return switch (event.kind) {
            case INVALID -> {
                file(event, "INVALID");
                yield new String[] {"INVALID", "INVALID_REQUEST"};
            }
            case AUTHORIZATION -> authorize(event);
            case REVERSAL -> reverse(event, store);
        };
    }

    /** Applies the event's stored outcome, as a backtest does for events before its period. */
    void applyStored(HistoryEvent event) {
        if (event.kind == HistoryEvent.Kind.AUTHORIZATION && event.decision.equals("APPROVED")) {
            add(event.bucket, event.amount, 1);
        } else if (event.kind == HistoryEvent.Kind.REVERSAL && event.decision.equals("RELEASED")) {
            Original original = originals.get(event.reverses);
            add(original.bucket, -event.releasedAmount, -event.releasedCount);
            original.released += event.releasedAmount;
        }
        file(event, event.decision);
    }

    private String[] authorize(HistoryEvent event) {
        Map<Window, Tally> byWindow = new EnumMap<>(Window.class);
        for (Window window : Window.values()) {
            if (window.countsUsage()) {
                byWindow.put(window, sumFrom(start(window, event.bucket)));
            }
        }
        Outcome outcome = LimitPolicy.decide(event.amount, new Usage(byWindow), limits);
        if (outcome.isApproved()) {
            add(event.bucket, event.amount, 1);
        }
        file(event, outcome.verdict().name());
        return new String[] {
            outcome.verdict().name(),
            outcome.reason() == null ? null : outcome.reason().name()
        };
    }

    /** @param store whether to write the release on the event as its stored one */
    private String[] reverse(HistoryEvent event, boolean store) {
        Original original = originals.get(event.reverses);
        String[] outcome;
        if (original == null) {
            outcome = new String[] {"REJECTED", "ORIGINAL_NOT_FOUND"};
        } else if (original.kind != HistoryEvent.Kind.AUTHORIZATION || !original.verdict.equals("APPROVED")) {
            outcome = new String[] {"REJECTED", "ORIGINAL_NOT_APPROVED"};
        } else if (event.amount > original.amount - original.released) {
            outcome = new String[] {"REJECTED", "EXCEEDS_REMAINING"};
            if (store) {
                event.remaining = original.amount - original.released;
            }
        } else {
            original.released += event.amount;
            int count = original.released == original.amount ? 1 : 0;
            add(original.bucket, -event.amount, -count);
            if (store) {
                event.releasedAmount = event.amount;
                event.releasedCount = count;
                event.remaining = original.amount - original.released;
            }
            outcome = new String[] {"RELEASED", null};
        }
        file(event, outcome[0]);
        return outcome;
    }

    private void file(HistoryEvent event, String verdict) {
        originals.put(event.dedupeId, new Original(event.kind, verdict, event.amount, event.bucket));
    }

    private void add(Instant bucket, long amount, long count) {
        long[] tally = buckets.computeIfAbsent(bucket, hour -> new long[2]);
        tally[0] += amount;
        tally[1] += count;
    }

    private Tally sumFrom(Instant start) {
        long amount = 0;
        long count = 0;
        for (Map.Entry<Instant, long[]> bucket : buckets.entrySet()) {
            if (!bucket.getKey().isBefore(start)) {
                amount += bucket.getValue()[0];
                count += bucket.getValue()[1];
            }
        }
        return new Tally(amount, count);
    }

    private Instant start(Window window, Instant bucket) {
        var day = bucket.atZone(zone).toLocalDate();
        return switch (window) {
            case LAST_24_HOURS -> bucket.minus(Duration.ofHours(23));
            case LAST_7_DAYS -> bucket.minus(Duration.ofHours(7 * 24 - 1));
            case LAST_30_DAYS -> bucket.minus(Duration.ofHours(30 * 24 - 1));
            case DAY -> day.atStartOfDay(zone).toInstant();
            case WEEK ->
                day.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY))
                        .atStartOfDay(zone)
                        .toInstant();
            case MONTH -> day.withDayOfMonth(1).atStartOfDay(zone).toInstant();
            case TXN -> throw new IllegalArgumentException("txn sums nothing");
        };
    }
}
